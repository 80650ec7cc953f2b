/**
 * What drift prints never drives the terminal it is printed on: an id, a value, a reason or a
 * function's output that carries control characters (an accepted id holding `ESC ] 0 ; ... BEL`, which
 * retitles the window; a cursor move that overwrites the lines above) shows them as escapes instead
 * (`\x1b`, `\x07`). Applied once, where text leaves drift (cli/main.ts wraps the streams), not in any
 * formatter. JSON stays exact: JSON.stringify leaves no raw C0 character, and DEL and the C1 controls
 * become JSON's own `\u007f` escapes, which read back as the same string.
 */

/** Every C0 control but newline and tab, DEL and the C1 controls. */
// oxlint-disable-next-line no-control-regex -- matching control characters is this module's job
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/**
 * drift's own styling, kept on a terminal: the SGR colours of node:util's styleText (text reports on a
 * TTY). Whatever else starts with ESC is escaped; progress lines, which move the cursor, are written
 * past the escaper (Output.raw).
 */
// oxlint-disable-next-line no-control-regex -- ESC starts drift's own colours
const STYLE = /\u001b\[[0-9;]*m/y;

const shown = (char: string): string => {
  const code = char.charCodeAt(0);
  return code < 0x20 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** `text` with its control characters shown as escapes; with `styles`, drift's SGR colours pass. */
export function escapeTerminal(text: string, options: { styles?: boolean } = {}): string {
  if (!CONTROL.test(text)) return text;
  CONTROL.lastIndex = 0;
  return text.replace(CONTROL, (char, offset: number) => {
    if (options.styles && char === '\u001b') {
      STYLE.lastIndex = offset;
      if (STYLE.test(text)) return char;
    }
    return shown(char);
  });
}
