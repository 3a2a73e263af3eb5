// A pure function's results kept by argument, up to a bound, then all forgotten at once: a run
// computes the same few digests and patterns for every host and every tick of a schedule, and a
// bound keeps a long schedule's memory flat when what it computes changes.
export function boundedMemo<K, V>(compute: (key: K) => V, limit: number): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = compute(key);
      if (kept.size >= limit) kept.clear();
      kept.set(key, value);
    }
    return value;
  };
}
