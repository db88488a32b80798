/**
 * A closed stdout or stderr — `reserve-audit audit … | head -3`: the reader went away, the next
 * write fails with EPIPE — is not a failure of the command (docs/cli.md "Exit codes"): the rest of
 * that stream's output is dropped, the command finishes its work and exits with its own code. No
 * stack trace, no exit 1. main() installs this on the process's streams before anything is written.
 */

/** EPIPE (the reader closed the pipe), or a write after the stream was destroyed by one. */
function isClosedOutputError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/**
 * Swallows the error a write to a closed pipe raises on `stream` (any other error is thrown on, as
 * Node would without a listener); returns the function that removes the listener.
 */
export function ignoreClosedOutput(stream: NodeJS.WritableStream): () => void {
  const onError = (e: unknown): void => {
    if (!isClosedOutputError(e)) throw e;
  };
  stream.on('error', onError);
  return () => {
    stream.off('error', onError);
  };
}
