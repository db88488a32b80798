/**
 * A small XML well-formedness checker for the JUnit output (tests only): one root element,
 * properly nested and closed tags, quoted attributes, only the five predefined entities or
 * numeric references, no raw '<' or '&' in text.
 */
export function assertWellFormedXml(xml: string): void {
  let s = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  const name = '[A-Za-z_][\\w.-]*';
  const attr = `\\s+${name}="[^"<]*"`;
  const open = new RegExp(`^<(${name})((?:${attr})*)\\s*(/?)>`);
  const close = new RegExp(`^</(${name})\\s*>`);
  while (s.length > 0) {
    if (s.startsWith('</')) {
      const m = close.exec(s);
      if (m === null || stack.pop() !== m[1]) throw new Error(`bad close tag near ${s.slice(0, 40)}`);
      s = s.slice(m[0].length);
    } else if (s.startsWith('<')) {
      const m = open.exec(s);
      if (m === null) throw new Error(`bad tag near ${s.slice(0, 40)}`);
      if (stack.length === 0) roots++;
      if (m[3] !== '/') stack.push(m[1] ?? '');
      s = s.slice(m[0].length);
    } else {
      const i = s.indexOf('<');
      const text = i < 0 ? s : s.slice(0, i);
      if (stack.length === 0 && text.trim() !== '') throw new Error('text outside the root');
      if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(text)) throw new Error('bad entity');
      s = i < 0 ? '' : s.slice(i);
    }
  }
  if (stack.length !== 0 || roots !== 1) throw new Error(`unclosed ${stack.join(',')} or ${roots} roots`);
  for (const m of xml.matchAll(/="([^"]*)"/g))
    if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(m[1] ?? ''))
      throw new Error('bad entity in attribute');
}
