/**
 * The sign-in input box: a password field with a link to the dashboard, checked as typed, that keeps
 * what was typed and says why when the server refuses the token.
 */
import * as vscode from 'vscode';
import { validateApiToken } from '../../../model/validate';

const DASHBOARD_URL = 'https://tensorpool.dev/dashboard';

export interface TokenCheck {
  readonly ok: boolean;
  readonly message?: string;
}

/** Ask for a token until `tryToken` accepts one or the box is closed; `onSignedIn` runs on success. */
export function promptForToken(
  tryToken: (token: string) => Promise<TokenCheck>,
  onSignedIn: () => void,
): Promise<TokenCheck> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    const openDashboard: vscode.QuickInputButton = {
      iconPath: new vscode.ThemeIcon('link-external'),
      tooltip: vscode.l10n.t('Get an API token from the TensorPool dashboard'),
    };
    box.title = vscode.l10n.t('TensorPool: Sign In');
    box.prompt = vscode.l10n.t(
      'Paste your TensorPool API token (from the account dashboard; the link button opens it).',
    );
    box.placeholder = vscode.l10n.t('API token');
    box.password = true;
    box.ignoreFocusOut = true;
    box.buttons = [openDashboard];
    let settled = false;
    const finish = (r: TokenCheck) => {
      if (settled) return;
      settled = true;
      resolve(r);
      box.dispose();
    };
    box.onDidTriggerButton((b) => {
      if (b === openDashboard) void vscode.env.openExternal(vscode.Uri.parse(DASHBOARD_URL));
    });
    box.onDidChangeValue((v) => {
      box.validationMessage = v === '' ? undefined : validateApiToken(v);
    });
    box.onDidAccept(async () => {
      const value = box.value;
      const problem = validateApiToken(value);
      if (problem) {
        box.validationMessage = problem;
        return;
      }
      box.busy = true;
      box.enabled = false;
      const result = await tryToken(value.trim());
      box.busy = false;
      box.enabled = true;
      if (result.ok) {
        onSignedIn();
        finish(result);
      } else {
        // Keep what was typed; say why, right where the user is looking.
        box.validationMessage = result.message;
      }
    });
    box.onDidHide(() => finish({ ok: false, message: vscode.l10n.t('Sign-in cancelled.') }));
    box.show();
  });
}
