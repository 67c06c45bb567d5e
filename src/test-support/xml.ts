/**
 * A strict well-formedness check for the XML the suite writes (JUnit): one root, tags that
 * nest and close, quoted attributes, only the five predefined entities. Enough to catch
 * what makes CI tools refuse a report, without an XML dependency.
 */
const NAME = '[A-Za-z_][\\w.-]*';
const ATTRS = `(?:\\s+${NAME}="[^"<]*")*`;
const TOKEN = new RegExp(`<\\?xml[^?]*\\?>|<(${NAME})${ATTRS}\\s*(/?)>|</(${NAME})>|<|&(?!(?:amp|lt|gt|quot|apos);)`, 'g');

export function wellFormedXml(text: string): boolean {
  const stack: string[] = [];
  let roots = 0;
  for (const match of text.matchAll(TOKEN)) {
    const [token, open, selfClosing, close] = match;
    if (token.startsWith('<?xml')) continue;
    if (open !== undefined) {
      if (stack.length === 0) roots += 1;
      if (selfClosing !== '/') stack.push(open);
    } else if (close !== undefined) {
      if (stack.pop() !== close) return false;
    } else return false; // a stray '<' or '&'
  }
  return stack.length === 0 && roots === 1;
}
