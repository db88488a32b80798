/**
 * A progress line on stderr: on a TTY one line rewritten in place (dimmed unless NO_COLOR is set
 * to a non-empty value), elsewhere silent; `line` prints a lasting line, clearing the progress first.
 */
import { formatDisplayText } from '../../core/wire/display-text.js';

export interface Progress {
  /** replaces the progress line (TTY only) */
  update(text: string): void;
  /** prints a lasting line */
  line(text: string): void;
  /** erases the progress line, if any */
  clear(): void;
}

export function createProgress(stderr: NodeJS.WritableStream, env: NodeJS.ProcessEnv): Progress {
  const tty = (stderr as { isTTY?: boolean }).isTTY === true;
  const color = tty && (env.NO_COLOR === undefined || env.NO_COLOR === '');
  let dirty = false;
  const clear = (): void => {
    if (dirty) stderr.write('\r\x1b[2K');
    dirty = false;
  };
  return {
    update(text) {
      if (!tty) return;
      const safe = formatDisplayText(text);
      stderr.write(`\r\x1b[2K${color ? `\x1b[2m${safe}\x1b[22m` : safe}`);
      dirty = true;
    },
    line(text) {
      clear();
      stderr.write(`${formatDisplayText(text)}\n`);
    },
    clear,
  };
}
