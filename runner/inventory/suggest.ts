// "Did you mean ...?" for typos in inventory keys and host patterns.

/** Levenshtein distance, case-insensitive. */
export function editDistance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Up to `max` candidates close to `word`: small edit distance, or one contains the other. */
export function closeNames(word: string, candidates: Iterable<string>, max = 5): string[] {
  const w = word.toLowerCase();
  const limit = Math.max(2, Math.floor(word.length / 3));
  const scored: { name: string; score: number }[] = [];
  for (const name of new Set(candidates)) {
    const n = name.toLowerCase();
    const d = editDistance(w, n);
    const contains = w.length >= 3 && (n.includes(w) || w.includes(n));
    if (d <= limit || contains) scored.push({ name, score: contains ? Math.min(d, 1) : d });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : 1));
  return scored.slice(0, max).map((s) => s.name);
}
