/**
 * The create wizard's knowledge of the keys saved on the account: the service adds them to every new
 * cluster, so "no new key" is fine when some exist, and leaves the cluster unreachable over SSH when
 * none do (the summary then warns and its SSH key row leads back to the key step to add one).
 * No `vscode` import.
 */
import * as l10n from '@vscode/l10n';

/** The saved keys the user will get on the cluster; undefined when they could not be listed. */
export interface SavedKeys {
  readonly names: readonly string[];
}

/** The key step's "nothing extra" row (its label is what scripts and users pick). */
export const noKeyLabel = (): string => l10n.t('No new key');

export const unreachableWarning = (): string =>
  l10n.t('No SSH key is saved on your account and none is chosen: the cluster will be unreachable over SSH.');

function names(saved: SavedKeys): string {
  const shown = saved.names.slice(0, 3).join(', ') + (saved.names.length > 3 ? ', …' : '');
  return saved.names.length === 1
    ? l10n.t('1 saved key ({0})', shown)
    : l10n.t('{0} saved keys ({1})', saved.names.length, shown);
}

/** What "no new key" means, for its row in the key step. */
export function noKeyDescription(saved: SavedKeys | undefined): string {
  if (!saved) return l10n.t('use only the keys saved on your account and organisation');
  if (saved.names.length === 0)
    return l10n.t('no key is saved on your account: the cluster would be unreachable over SSH');
  return l10n.t('your {0} will be added', names(saved));
}

/** The summary's SSH key row when no new key was chosen. */
export function noKeySummary(saved: SavedKeys | undefined): string {
  if (!saved) return l10n.t('none (saved keys only)');
  if (saved.names.length === 0)
    return l10n.t('$(warning) none: unreachable over SSH. Pick this row to add a key');
  return l10n.t('none new: your {0} will be added', names(saved));
}
