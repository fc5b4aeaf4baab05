// gradlink's clang plugin: Enzyme's source attributes, and registered functions kept whole.
//
//   clang-22 -O2 -flto -fplugin=$(gradlink clang-plugin) -c f.c
//
// 1. Attributes. Plain clang drops Enzyme's attributes with a warning, so the link never sees
//    them and the derivative would silently differ from the one the program asks for. With this
//    plugin loaded they are understood:
//      __attribute__((enzyme_inactive))            functions (calls carry no derivative) and
//                                                  global variables (memory needing no shadow)
//      __attribute__((enzyme_inactive_noblock))    functions
//      __attribute__((enzyme_function_like("log1p")))  functions: that built-in rule's derivative
//      __attribute__((enzyme_shadow(var)))         global variables: var is their shadow
//    Each becomes an annotation (llvm.global.annotations) that the pass below turns into the IR
//    form ld.gradlink reads: registration globals as Enzyme's C API writes them by hand
//    (__enzyme_inactivefn, __enzyme_inactive_global, __enzyme_inactivenoblockfn,
//    __enzyme_function_like), and !enzyme_shadow metadata on the global. Enzyme attributes
//    gradlink does not implement (enzyme_nofree, enzyme_sparse_accumulate) are errors: ignoring
//    them could change a derivative.
//
// 2. Registered functions stay calls. The optimizer of the compile before the link may inline a
//    function with a registered derivative (or an inactive one, or a registered allocator) into
//    its callers, and the link could then only differentiate the inlined body, bypassing the
//    registration (ld.gradlink refuses such links). A pass at the start of the optimization
//    pipeline marks every function named by a registration noinline, before any inlining.
//
// Built by `gradlink clang-plugin` against the clang-22 headers (Debian: libclang-22-dev).

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaDiagnostic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace clang;

namespace {

// ---------------------------------------------------------------------------------------------
// The pass: annotations -> registrations, registered functions -> noinline.

constexpr const char *kAnnotationPrefix = "enzyme_";
constexpr const char *kRegistrationKeys[] = {
    "__enzyme_register_gradient", "__enzyme_register_derivative",
    "__enzyme_register_splitderivative", "__enzyme_function_like", "__enzyme_inactivefn",
    "__enzyme_inactivenoblockfn", "__enzyme_allocation_like", "__enzyme_shouldrecompute"};

llvm::Function *functionOf(llvm::Constant *c) {
  return llvm::dyn_cast<llvm::Function>(c->stripPointerCasts());
}

void keepWhole(llvm::Function *f) {
  if (!f || f->isDeclaration())
    return;
  f->removeFnAttr(llvm::Attribute::AlwaysInline);
  f->addFnAttr(llvm::Attribute::NoInline);
}

// The functions of a registration whose calls ld.gradlink replaces: the first entry (the
// function given a derivative), every entry of an inactive list, and an allocator's
// deallocator (its fourth entry).
void keepRegisteredWhole(llvm::GlobalVariable &gv) {
  if (!gv.hasInitializer())
    return;
  llvm::StringRef name = gv.getName();
  const char *key = nullptr;
  for (const char *k : kRegistrationKeys)
    if (name.contains(k)) {
      key = k;
      break;
    }
  if (!key)
    return;
  auto *init = gv.getInitializer();
  std::vector<llvm::Constant *> entries;
  if (llvm::isa<llvm::ConstantAggregate>(init)) {
    for (auto &op : init->operands())
      entries.push_back(llvm::cast<llvm::Constant>(op.get()));
  } else {
    entries.push_back(init);
  }
  llvm::StringRef k(key);
  for (size_t i = 0; i < entries.size(); ++i) {
    bool wanted = i == 0 || k.contains("inactive") ||
                  (k == "__enzyme_allocation_like" && i == 3);
    if (wanted)
      keepWhole(functionOf(entries[i]));
  }
}

llvm::GlobalVariable *registration(llvm::Module &m, llvm::StringRef key, llvm::StringRef of,
                                   llvm::ArrayRef<llvm::Constant *> entries) {
  auto *ptr = llvm::PointerType::getUnqual(m.getContext());
  auto *type = llvm::ArrayType::get(ptr, entries.size());
  auto *gv = new llvm::GlobalVariable(m, type, /*isConstant=*/true,
                                      llvm::GlobalValue::InternalLinkage,
                                      llvm::ConstantArray::get(type, entries),
                                      (key + "_autoreg_" + of).str());
  llvm::appendToUsed(m, {gv});
  return gv;
}

llvm::Constant *cString(llvm::Module &m, llvm::StringRef text) {
  auto *init = llvm::ConstantDataArray::getString(m.getContext(), text);
  auto *gv = new llvm::GlobalVariable(m, init->getType(), true,
                                      llvm::GlobalValue::PrivateLinkage, init, ".enzyme.str");
  gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  return gv;
}

// The first argument of an annotation (its fifth field points to a constant struct of them).
llvm::GlobalVariable *firstGlobalArgument(llvm::Constant *args) {
  auto *holder = llvm::dyn_cast<llvm::GlobalVariable>(args->stripPointerCasts());
  if (!holder || !holder->hasInitializer())
    return nullptr;
  auto *init = holder->getInitializer();
  if (init->getNumOperands() == 0)
    return nullptr;
  return llvm::dyn_cast<llvm::GlobalVariable>(
      llvm::cast<llvm::Constant>(init->getOperand(0))->stripPointerCasts());
}

void readAnnotations(llvm::Module &m) {
  auto *annotations = m.getGlobalVariable("llvm.global.annotations");
  if (!annotations || !annotations->hasInitializer())
    return;
  auto *list = llvm::dyn_cast<llvm::ConstantArray>(annotations->getInitializer());
  if (!list)
    return;
  llvm::LLVMContext &ctx = m.getContext();
  for (auto &op : list->operands()) {
    auto *entry = llvm::dyn_cast<llvm::ConstantStruct>(op.get());
    if (!entry || entry->getNumOperands() < 5)
      continue;
    auto *target = llvm::cast<llvm::GlobalValue>(entry->getOperand(0)->stripPointerCasts());
    auto *textGV =
        llvm::dyn_cast<llvm::GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
    if (!textGV || !textGV->hasInitializer())
      continue;
    auto *data = llvm::dyn_cast<llvm::ConstantDataArray>(textGV->getInitializer());
    if (!data || !data->isCString())
      continue;
    llvm::StringRef text = data->getAsCString();
    if (!text.starts_with(kAnnotationPrefix))
      continue;
    llvm::StringRef of = target->getName();
    auto *fn = llvm::dyn_cast<llvm::Function>(target);
    if (text == "enzyme_inactive") {
      if (fn)
        registration(m, "__enzyme_inactivefn", of, {fn});
      else
        registration(m, "__enzyme_inactive_global", of, {target});
    } else if (text == "enzyme_inactive_noblock" && fn) {
      registration(m, "__enzyme_inactivenoblockfn", of, {fn});
    } else if (text.consume_front("enzyme_function_like=") && fn) {
      registration(m, "__enzyme_function_like", of, {fn, cString(m, text)});
    } else if (text == "enzyme_shadow") {
      auto *gv = llvm::dyn_cast<llvm::GlobalVariable>(target);
      auto *shadow = firstGlobalArgument(llvm::cast<llvm::Constant>(entry->getOperand(4)));
      if (gv && shadow)
        gv->setMetadata("enzyme_shadow",
                        llvm::MDNode::get(ctx, {llvm::ConstantAsMetadata::get(shadow)}));
    }
  }
}

struct GradlinkRegistrations : llvm::PassInfoMixin<GradlinkRegistrations> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
    readAnnotations(m);
    for (auto &gv : m.globals())
      keepRegisteredWhole(gv);
    return llvm::PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

void registerPass(llvm::PassBuilder &pb) {
  pb.registerPipelineStartEPCallback(
      [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
        mpm.addPass(GradlinkRegistrations());
      });
}

// ---------------------------------------------------------------------------------------------
// The attributes.

enum class Applies { Functions, Globals, FunctionsAndGlobals };

bool appliesTo(Applies what, const Decl *d) {
  bool isFunction = isa<FunctionDecl>(d);
  auto *var = dyn_cast<VarDecl>(d);
  bool isGlobal = var && var->hasGlobalStorage();
  switch (what) {
  case Applies::Functions:
    return isFunction;
  case Applies::Globals:
    return isGlobal;
  case Applies::FunctionsAndGlobals:
    return isFunction || isGlobal;
  }
  return false;
}

const char *describe(Applies what) {
  switch (what) {
  case Applies::Functions:
    return "functions";
  case Applies::Globals:
    return "global variables";
  case Applies::FunctionsAndGlobals:
    return "functions and global variables";
  }
  return "";
}

void error(Sema &s, SourceLocation at, llvm::StringRef message) {
  unsigned id = s.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0");
  s.Diag(at, id) << message;
}

// One Enzyme attribute: its spellings (GNU, C23, C++11, enzyme:: scoped) and where it applies.
struct EnzymeAttr : public ParsedAttrInfo {
  std::string name;
  Applies what;
  Spelling spellings[4];
  std::string scoped;

  EnzymeAttr(const char *attr, Applies applies, unsigned args) : name(attr), what(applies) {
    scoped = std::string("enzyme::") + (name.c_str() + strlen("enzyme_"));
    spellings[0] = {ParsedAttr::AS_GNU, name.c_str()};
    spellings[1] = {ParsedAttr::AS_C23, name.c_str()};
    spellings[2] = {ParsedAttr::AS_CXX11, name.c_str()};
    spellings[3] = {ParsedAttr::AS_CXX11, scoped.c_str()};
    Spellings = spellings;
    NumArgs = args;
  }

  bool diagAppertainsToDecl(Sema &s, const ParsedAttr &attr, const Decl *d) const override {
    if (appliesTo(what, d))
      return true;
    s.Diag(attr.getLoc(), diag::warn_attribute_wrong_decl_type_str) << attr << describe(what);
    return false;
  }

  AttrHandling annotate(Sema &s, Decl *d, const ParsedAttr &attr, llvm::StringRef text,
                        llvm::MutableArrayRef<Expr *> args = {}) const {
    if (!args.empty() && !s.ConstantFoldAttrArgs(attr, args))
      return AttributeNotApplied;
    d->addAttr(AnnotateAttr::Create(s.Context, text, args.data(), args.size(), attr));
    return AttributeApplied;
  }
};

struct InactiveAttr : EnzymeAttr {
  InactiveAttr() : EnzymeAttr("enzyme_inactive", Applies::FunctionsAndGlobals, 0) {}
  AttrHandling handleDeclAttribute(Sema &s, Decl *d, const ParsedAttr &attr) const override {
    return annotate(s, d, attr, "enzyme_inactive");
  }
};

struct InactiveNoBlockAttr : EnzymeAttr {
  InactiveNoBlockAttr() : EnzymeAttr("enzyme_inactive_noblock", Applies::Functions, 0) {}
  AttrHandling handleDeclAttribute(Sema &s, Decl *d, const ParsedAttr &attr) const override {
    return annotate(s, d, attr, "enzyme_inactive_noblock");
  }
};

struct FunctionLikeAttr : EnzymeAttr {
  FunctionLikeAttr() : EnzymeAttr("enzyme_function_like", Applies::Functions, 1) {}
  AttrHandling handleDeclAttribute(Sema &s, Decl *d, const ParsedAttr &attr) const override {
    auto *literal = attr.getNumArgs() == 1 && attr.isArgExpr(0)
                        ? dyn_cast<StringLiteral>(attr.getArgAsExpr(0)->IgnoreParenCasts())
                        : nullptr;
    if (!literal) {
      error(s, attr.getLoc(),
            "enzyme_function_like takes the name of a function whose derivative rule to use, "
            "as a string: __attribute__((enzyme_function_like(\"log1p\")))");
      return AttributeNotApplied;
    }
    return annotate(s, d, attr, ("enzyme_function_like=" + literal->getString()).str());
  }
};

struct ShadowAttr : EnzymeAttr {
  ShadowAttr() : EnzymeAttr("enzyme_shadow", Applies::Globals, 1) {}
  AttrHandling handleDeclAttribute(Sema &s, Decl *d, const ParsedAttr &attr) const override {
    VarDecl *var = nullptr;
    SourceLocation at = attr.getLoc();
    if (attr.getNumArgs() == 1 && attr.isArgIdent(0)) {
      // the parser keeps a lone name as an identifier: look it up where the attribute is
      IdentifierLoc *ident = attr.getArgAsIdent(0);
      at = ident->getLoc();
      var = dyn_cast_or_null<VarDecl>(s.LookupSingleName(
          s.getCurScope(), ident->getIdentifierInfo(), at, Sema::LookupOrdinaryName));
    } else if (attr.getNumArgs() == 1 && attr.isArgExpr(0)) {
      auto *ref = dyn_cast<DeclRefExpr>(attr.getArgAsExpr(0)->IgnoreParenImpCasts());
      var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    }
    if (!var || !var->hasGlobalStorage()) {
      error(s, attr.getLoc(),
            "enzyme_shadow takes the global variable holding the shadow: "
            "__attribute__((enzyme_shadow(x_shadow))) double x;");
      return AttributeNotApplied;
    }
    if (s.Context.getCanonicalType(var->getType()) !=
        s.Context.getCanonicalType(cast<VarDecl>(d)->getType())) {
      error(s, attr.getLoc(), "the shadow of a global variable must have the variable's type");
      return AttributeNotApplied;
    }
    var->markUsed(s.Context);
    auto *ref = DeclRefExpr::Create(s.Context, NestedNameSpecifierLoc(), SourceLocation(), var,
                                    false, at, var->getType(), VK_LValue);
    ExprResult address = s.CreateBuiltinUnaryOp(at, UO_AddrOf, ref);
    if (address.isInvalid())
      return AttributeNotApplied;
    Expr *args[] = {address.get()};
    return annotate(s, d, attr, "enzyme_shadow", args);
  }
};

// Enzyme attributes gradlink does not implement: an error, not a silently different derivative.
struct UnsupportedAttr : EnzymeAttr {
  UnsupportedAttr(const char *name) : EnzymeAttr(name, Applies::FunctionsAndGlobals, 0) {
    OptArgs = 15;
  }
  AttrHandling handleDeclAttribute(Sema &s, Decl *, const ParsedAttr &attr) const override {
    error(s, attr.getLoc(),
          name + " is an Enzyme attribute gradlink does not implement; remove it, or see "
                 "docs/enzyme-compat.md for what gradlink supports");
    return AttributeNotApplied;
  }
};

struct NoFreeAttr : UnsupportedAttr {
  NoFreeAttr() : UnsupportedAttr("enzyme_nofree") {}
};
struct SparseAccumulateAttr : UnsupportedAttr {
  SparseAccumulateAttr() : UnsupportedAttr("enzyme_sparse_accumulate") {}
};

// ---------------------------------------------------------------------------------------------
// The frontend action: registers the pass with the compile's pass builder.

class Consumer : public ASTConsumer {};

class Action : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    ci.getCodeGenOpts().PassBuilderCallbacks.push_back(registerPass);
    return std::make_unique<Consumer>();
  }
  bool ParseArgs(const CompilerInstance &, const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<Action> action("gradlink", "gradlink: Enzyme attributes");
static ParsedAttrInfoRegistry::Add<InactiveAttr> a1("enzyme_inactive", "");
static ParsedAttrInfoRegistry::Add<InactiveNoBlockAttr> a2("enzyme_inactive_noblock", "");
static ParsedAttrInfoRegistry::Add<FunctionLikeAttr> a3("enzyme_function_like", "");
static ParsedAttrInfoRegistry::Add<ShadowAttr> a4("enzyme_shadow", "");
static ParsedAttrInfoRegistry::Add<NoFreeAttr> a5("enzyme_nofree", "");
static ParsedAttrInfoRegistry::Add<SparseAccumulateAttr> a6("enzyme_sparse_accumulate", "");
