// Rust program for the link test: std collections, formatting, a caught panic and f64 maths.
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::fmt;
use std::panic;

#[derive(Debug, Clone, PartialEq)]
struct Point {
    x: f64,
    y: f64,
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({:.3}, {:.3})", self.x, self.y)
    }
}

trait Area {
    fn area(&self) -> f64;
}

struct Polygon(Vec<Point>);

impl Area for Polygon {
    fn area(&self) -> f64 {
        let n = self.0.len();
        let mut s = 0.0;
        for i in 0..n {
            let (a, b) = (&self.0[i], &self.0[(i + 1) % n]);
            s += a.x * b.y - b.x * a.y;
        }
        s.abs() / 2.0
    }
}

#[inline(never)]
fn checked_div(a: i64, b: i64) -> i64 {
    if b == 0 {
        panic!("division of {} by zero", a);
    }
    a / b
}

fn main() {
    // word frequencies with HashMap, printed in a deterministic order via BTreeMap
    let text = "the quick brown fox jumps over the lazy dog the fox";
    let mut freq: HashMap<&str, usize> = HashMap::new();
    for w in text.split_whitespace() {
        *freq.entry(w).or_insert(0) += 1;
    }
    let sorted: BTreeMap<_, _> = freq.iter().map(|(k, v)| (*k, *v)).collect();
    let line: Vec<String> = sorted.iter().map(|(k, v)| format!("{k}={v}")).collect();
    println!("freq: {}", line.join(","));
    let unique: HashSet<char> = text.chars().filter(|c| c.is_alphabetic()).collect();
    println!("unique letters: {}", unique.len());

    let mut queue: VecDeque<u64> = (1..=10).collect();
    queue.rotate_left(3);
    let primes: Vec<u64> = (2..60u64).filter(|n| (2..*n).all(|d| n % d != 0)).collect();
    println!("queue: {:?}", queue);
    println!("primes: {:?} sum={}", primes, primes.iter().sum::<u64>());
    let mut words: Vec<&str> = text.split(' ').collect();
    words.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    words.dedup();
    println!("by length: {}", words.join(" "));

    // formatting
    let p = Point { x: 1.0 / 3.0, y: -2.5 };
    println!("point {} debug {:?}", p, p);
    println!("[{:>8}] [{:<8}] [{:^8}] [{:08.3}] [{:#x}] [{:#b}] [{:e}]", "right", "left", "mid", -3.14159, 255, 5, 1234.5);

    // f64 maths
    let x = 0.75f64;
    println!("sin={:.6} cos={:.6} exp={:.6} ln={:.6}", x.sin(), x.cos(), x.exp(), x.ln());
    println!("sqrt2={:.10} pow={:.6} atan2={:.6} hypot={:.3}", 2f64.sqrt(), 1.5f64.powf(2.5), (1.0f64).atan2(-1.0), 3f64.hypot(4.0));
    let poly = Polygon(vec![
        Point { x: 0.0, y: 0.0 },
        Point { x: 4.0, y: 0.0 },
        Point { x: 4.0, y: 3.0 },
        Point { x: 0.0, y: 3.0 },
    ]);
    println!("polygon area {:.2}", poly.area());
    let mean = primes.iter().map(|&v| v as f64).sum::<f64>() / primes.len() as f64;
    println!("mean prime {:.4}", mean);

    // a panic caught with catch_unwind; the hook reports to stdout so both runs can be compared
    panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        println!("panic hook: {msg}");
    }));
    let ok = panic::catch_unwind(|| checked_div(84, 2));
    let bad = panic::catch_unwind(|| checked_div(7, 0));
    println!("ok={:?} bad_is_err={}", ok, bad.is_err());
    let v: Vec<i32> = Vec::new();
    let oob = panic::catch_unwind(|| v[3]);
    println!("index panic caught: {}", oob.is_err());
    let _ = panic::take_hook();
    std::process::exit(if bad.is_err() && oob.is_err() { 0 } else { 1 });
}
