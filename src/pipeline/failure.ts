import type { Finding } from '../compare/findings.js';
import { findingId } from '../compare/findingId.js';

/** A cell that could not be analyzed to the end: the function failed while drift rendered it. */
export function renderError(cell: { provider: string; scenario: string }, what: string | undefined, message: string): Finding {
  return {
    id: findingId('error', `${cell.provider}/${cell.scenario}`, ...(what ? [what] : [])),
    type: 'error',
    class: 'contract',
    provider: cell.provider,
    scenario: cell.scenario,
    subject: what ?? 'render',
    message: what ? `${what}: ${message}` : message,
    hint: 'fix the function (drift shows the end of its output with the error) and run drift again',
  };
}
