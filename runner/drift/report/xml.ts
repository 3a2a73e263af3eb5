// XML 1.0 escaping for the JUnit report (pure). Everything a run carries is text from hosts and
// files, so every attribute and every text node goes through here.
import { visible } from './common.js';

/** Text content: `&`, `<` and `>` (so `]]>` cannot occur); CR as a reference so parsers keep it. */
export function xmlText(s: string): string {
  return visible(s).replace(/[&<>\r]/g, (c) => ENTITY[c]!);
}

/** An attribute value in double quotes: also quotes, and tab/newline/CR as references, which
 *  attribute-value normalization would otherwise turn into spaces. */
export function xmlAttr(s: string): string {
  return visible(s).replace(/[&<>"'\t\n\r]/g, (c) => ENTITY[c]!);
}

const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};
