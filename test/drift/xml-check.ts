// A small strict XML 1.0 well-formedness checker for the JUnit report's tests (no parser in
// node_modules, and no dependency added for one): the XML declaration, elements, attributes, text,
// comments and character and entity references; every character must be one XML allows. No DTD,
// CDATA or processing instructions: the reports write none. Throws on the first error, with its offset.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: (XmlElement | string)[];
}

const NAME = /[A-Za-z_:][A-Za-z0-9._:-]*/y;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function parseXml(src: string): XmlElement {
  checkChars(src);
  const p = { src, at: 0 };
  eat(p, /<\?xml version="1\.0"( encoding="UTF-8")?\?>/y, 'an XML declaration');
  misc(p);
  const root = element(p);
  misc(p);
  if (p.at !== src.length) fail(p, 'content after the root element');
  return root;
}

interface P {
  src: string;
  at: number;
}

function fail(p: P, what: string): never {
  throw new Error(`not well-formed at ${p.at}: ${what} (near ${JSON.stringify(p.src.slice(p.at, p.at + 30))})`);
}

function eat(p: P, re: RegExp, what: string): RegExpExecArray {
  re.lastIndex = p.at;
  const m = re.exec(p.src);
  if (!m) fail(p, `expected ${what}`);
  p.at += m[0].length;
  return m;
}

function tryEat(p: P, re: RegExp): RegExpExecArray | null {
  re.lastIndex = p.at;
  const m = re.exec(p.src);
  if (m) p.at += m[0].length;
  return m;
}

/** Whitespace and comments between top-level constructs. */
function misc(p: P): void {
  while (tryEat(p, /[ \t\r\n]+/y) || comment(p));
}

function comment(p: P): boolean {
  if (!tryEat(p, /<!--/y)) return false;
  eat(p, /((?!--)[\s\S])*-->/y, 'a comment without "--" that ends with "-->"');
  return true;
}

function element(p: P): XmlElement {
  eat(p, /</y, '"<"');
  const name = eat(p, NAME, 'an element name')[0];
  const attrs: Record<string, string> = {};
  while (tryEat(p, /[ \t\r\n]+/y)) {
    const a = tryEat(p, NAME);
    if (!a) break;
    if (Object.hasOwn(attrs, a[0])) fail(p, `attribute ${a[0]} twice`);
    const v = eat(p, /[ \t\r\n]*=[ \t\r\n]*("([^<"]*)"|'([^<']*)')/y, 'an attribute value');
    // Attribute-value normalization: literal whitespace becomes a space, references are kept.
    attrs[a[0]] = decode(p, (v[2] ?? v[3]!).replace(/[\t\n\r]/g, ' '));
  }
  if (tryEat(p, /\/>/y)) return { name, attrs, children: [] };
  eat(p, />/y, '">" or "/>"');
  const children: (XmlElement | string)[] = [];
  for (;;) {
    const text = tryEat(p, /[^<]+/y);
    if (text) {
      if (text[0].includes(']]>')) fail(p, '"]]>" in text');
      children.push(decode(p, text[0].replace(/\r\n?/g, '\n')));
    }
    if (tryEat(p, /<\//y)) break;
    if (comment(p)) continue;
    if (p.at >= p.src.length) fail(p, `end of input inside <${name}>`);
    children.push(element(p));
  }
  eat(p, new RegExp(`${name.replace(/[.]/g, '\\.')}[ \\t\\r\\n]*>`, 'y'), `</${name}>`);
  return { name, attrs, children };
}

/** Resolves references; a bare `&` or a reference to a character XML forbids is an error. */
function decode(p: P, s: string): string {
  return s.replace(/&([^;]*);?/g, (ref, body: string) => {
    if (!ref.endsWith(';')) fail(p, `a bare "&" in ${JSON.stringify(s)}`);
    if (Object.hasOwn(ENTITIES, body)) return ENTITIES[body]!;
    const m = /^#(?:([0-9]+)|x([0-9a-fA-F]+))$/.exec(body);
    if (!m) fail(p, `unknown reference ${ref}`);
    const cp = m[1] !== undefined ? Number(m[1]) : Number.parseInt(m[2]!, 16);
    if (!isXmlChar(cp)) fail(p, `a reference to a character XML forbids: ${ref}`);
    return String.fromCodePoint(cp);
  });
}

function checkChars(src: string): void {
  let at = 0;
  for (const ch of src) {
    if (!isXmlChar(ch.codePointAt(0)!)) {
      throw new Error(`not well-formed at ${at}: character U+${ch.codePointAt(0)!.toString(16)} is not allowed`);
    }
    at += ch.length;
  }
}

/** XML 1.0 Char; C1 controls and DEL are allowed there but "discouraged": the reports write none. */
function isXmlChar(cp: number): boolean {
  if (cp >= 0x7f && cp <= 0x9f) return false;
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Every element named `name` under `e`, depth first. */
export function findAll(e: XmlElement, name: string): XmlElement[] {
  const kids = e.children.filter((c): c is XmlElement => typeof c !== 'string');
  return [...(e.name === name ? [e] : []), ...kids.flatMap((c) => findAll(c, name))];
}

export const textOf = (e: XmlElement): string =>
  e.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
