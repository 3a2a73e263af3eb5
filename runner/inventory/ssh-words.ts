// Splitting a command-line string into words, as Python's shlex.split does: Ansible reads the ssh
// arguments of ansible_ssh_common_args and friends this way (runner/inventory/connection.ts), and a
// ProxyCommand inside them is split again (runner/inventory/jump-args.ts).

// An inventory gives most of its hosts the same ssh args (group vars): each text is split once.
const split = new Map<string, readonly string[]>();
const SPLIT_KEPT = 256;

/** Splits a command-line string as Python's shlex.split does (which is how ansible reads ssh args). */
export function shellWords(text: string): string[] {
  let words = split.get(text);
  if (!words) {
    words = splitWords(text);
    if (split.size >= SPLIT_KEPT) split.clear();
    split.set(text, words);
  }
  return [...words];
}

function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      if (word !== null) {
        words.push(word);
        word = null;
      }
      continue;
    }
    word ??= '';
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated single quote');
      word += text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && (text[j + 1] === '"' || text[j + 1] === '\\')) j++;
        word += text[j];
      }
      if (j >= text.length) throw new Error('unterminated double quote');
      i = j;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
    } else {
      word += c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}
