/**
 * The burn rate and runway in words: the account tooltip's lines and the Clusters view's description
 * (`$21.40/h · about 19 h at this rate`). Nothing at all when no running thing has a price.
 */
import * as vscode from 'vscode';
import { formatHourly, runwayPhrase } from '../../model/gpu/cost';
import type { Burn, ClusterPrices } from './clusterPrices';

/** `$21.40/h`, or `at least $21.40/h` when something running has no price. */
function rateText(b: Burn): string {
  const rate = formatHourly(b.perHour);
  return b.unpriced > 0 ? vscode.l10n.t('at least {0}', rate) : rate;
}

/** The tooltip lines: the burn rate (an estimate) and the runway. */
export function burnLines(b: Burn | undefined, lowRunwayHours: number): { lines: string[]; low: boolean } {
  if (!b) return { lines: [], low: false };
  const lines = [vscode.l10n.t('Burn rate: {0} (running clusters and volumes; an estimate)', rateText(b))];
  const low = b.runwayHours !== undefined && lowRunwayHours > 0 && b.runwayHours < lowRunwayHours;
  if (b.runwayHours !== undefined)
    lines.push(
      low
        ? vscode.l10n.t(
            'Runway: {0} (below your warning level of {1} h)',
            runwayPhrase(b.runwayHours),
            lowRunwayHours,
          )
        : vscode.l10n.t('Runway: {0}', runwayPhrase(b.runwayHours)),
    );
  return { lines, low };
}

/** The Clusters view's description follows the burn rate and runway. */
export function showBurnInView(view: vscode.TreeView<unknown>, prices: ClusterPrices): vscode.Disposable {
  const render = () => {
    const b = prices.burn();
    view.description = !b
      ? undefined
      : b.runwayHours === undefined
        ? rateText(b)
        : vscode.l10n.t('{0} · {1}', rateText(b), runwayPhrase(b.runwayHours));
  };
  return prices.onDidChange(render);
}
