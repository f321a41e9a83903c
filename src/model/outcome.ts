/**
 * After a failed create, edit or destroy: did it perhaps happen anyway? A lost connection or answer, a
 * 5xx (a gateway's 502/504 says nothing about the service behind it) or an answer that could not be
 * read (a cut-off 202) leave the outcome unknown, unless the request never left (mayHaveReachedServer
 * false). Then sending it again could do it twice (a second GPU cluster costs real money): the user
 * checks first.
 */
import * as l10n from '@vscode/l10n';

/** Error kinds after which a mutating request may or may not have been acted on. */
const UNKNOWN_OUTCOME_KINDS: ReadonlySet<string> = new Set(['network', 'timeout', 'server', 'bad-response']);

export function outcomeUnknown(kind: string, mayHaveReachedServer: boolean): boolean {
  return UNKNOWN_OUTCOME_KINDS.has(kind) && mayHaveReachedServer;
}

/** Why a create's outcome is unknown, as the start of a sentence for the user. */
export function unknownCreateReason(kind: string): string {
  if (kind === 'network' || kind === 'timeout')
    return l10n.t('The connection failed after the create request was sent');
  if (kind === 'server')
    return l10n.t('TensorPool answered with a server error after receiving the create request');
  return l10n.t("TensorPool's answer to the create request could not be read");
}
