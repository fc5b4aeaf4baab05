"""Analyses over gradlink.ir functions: CFG, dominators, loops, activity."""
