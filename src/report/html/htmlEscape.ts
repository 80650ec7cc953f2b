/**
 * The page's one escaper. Everything on the page that is not drift's own markup comes from a report
 * that someone else's code may have written (the pull request's run), so every value goes through
 * here, in text and in attributes alike: the five characters that can end a text node or a quoted
 * attribute become entities.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/**
 * Markup built from escaped parts: what `html` returns, so a renderer can tell a string it already
 * escaped from one it has not (a plain string interpolated into `html` is escaped).
 */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = Markup | string | number | undefined | null | false | readonly Part[];

function partText(part: Part): string {
  if (part === undefined || part === null || part === false) return '';
  if (part instanceof Markup) return part.text;
  if (Array.isArray(part)) return (part as readonly Part[]).map(partText).join('');
  return escapeHtml(String(part));
}

/** A template tag: the literal parts are drift's markup, every interpolated value is escaped unless it is Markup. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Markup {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += partText(value) + strings[index + 1]!;
  });
  return new Markup(out);
}

/** Markup that is drift's own constant text (a style sheet, a script), never a report's value. */
export function trusted(text: string): Markup {
  return new Markup(text);
}
