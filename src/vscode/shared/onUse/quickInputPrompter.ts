/**
 * The wizards' Prompter backed by real VS Code quick inputs: titles with "step n/N", a Back button,
 * validation as the user types (errors block Enter, warnings do not), and ignoreFocusOut so a click
 * elsewhere does not lose what was typed.
 */
import * as vscode from 'vscode';
import {
  blocks,
  leaving,
  openingText,
  verdictMessage,
  withIcon,
  type Answer,
  type ConfirmOptions,
  type InputOptions,
  type PickManyOptions,
  type PickOptions,
  type Prompter,
  type Verdict,
} from '../../../wizards/prompter';
import { notices } from '../notices';

function toValidation(v: Verdict): string | vscode.InputBoxValidationMessage | undefined {
  if (v === undefined || typeof v === 'string') return v;
  return {
    message: v.message,
    severity:
      v.severity === 'warning'
        ? vscode.InputBoxValidationSeverity.Warning
        : vscode.InputBoxValidationSeverity.Error,
  };
}

export class QuickInputPrompter implements Prompter {
  input(o: InputOptions): Promise<Answer<string>> {
    return new Promise((resolve) => {
      const box = vscode.window.createInputBox();
      box.title = o.title;
      box.step = o.step;
      box.totalSteps = o.totalSteps;
      box.prompt = o.prompt;
      // What the user typed here and left unconfirmed comes back as it was, not the last confirmed value.
      const opened = openingText(o);
      box.value = opened;
      box.placeholder = o.placeholder;
      box.password = o.password ?? false;
      box.ignoreFocusOut = true;
      box.buttons = o.canGoBack ? [vscode.QuickInputButtons.Back] : [];
      box.validationMessage = o.initialError ?? (opened ? toValidation(o.validate(opened)) : undefined);
      let done = false;
      const finish = (a: Answer<string>) => {
        if (!done) {
          done = true;
          resolve(a);
          box.dispose();
        }
      };
      box.onDidChangeValue((v) => {
        box.validationMessage = toValidation(o.validate(v));
      });
      box.onDidTriggerButton((b) => {
        if (b === vscode.QuickInputButtons.Back) finish(leaving('back', box.value, opened));
      });
      box.onDidAccept(() => {
        const verdict = o.validate(box.value);
        if (blocks(verdict)) {
          box.validationMessage = toValidation(verdict);
          return;
        }
        finish({ kind: 'value', value: box.value });
      });
      box.onDidHide(() => finish(leaving('cancel', box.value, opened)));
      box.show();
    });
  }

  pick<T>(o: PickOptions<T>): Promise<Answer<T>> {
    type Item = vscode.QuickPickItem & { value?: T; custom?: boolean };
    return new Promise((resolve) => {
      const qp = vscode.window.createQuickPick<Item>();
      const base: Item[] = o.items.map((i) => ({
        label: i.label,
        description: i.description,
        detail: i.detail,
        value: i.value,
      }));
      dress(qp, o, base);
      const active = base.find(
        (i) =>
          i.value === o.active ||
          (o.active !== undefined && JSON.stringify(i.value) === JSON.stringify(o.active)),
      );
      if (active) qp.activeItems = [active];
      void o.later?.then((rows) => {
        if (done || !rows || showingCustom) return;
        const keep = qp.activeItems[0]?.value;
        base.splice(0, base.length, ...rows.map((i) => ({ ...i })));
        qp.items = base;
        const again = base.find((i) => i.value === keep || JSON.stringify(i.value) === JSON.stringify(keep));
        if (again) qp.activeItems = [again];
      });
      // QuickPick has no validation message: show problems in the placeholder's place (title line).
      if (o.initialError) qp.title = `${o.title}: ${o.initialError}`;
      let done = false;
      const finish = (a: Answer<T>) => {
        if (!done) {
          done = true;
          resolve(a);
          qp.dispose();
        }
      };
      let showingCustom = false;
      const onValue = (text: string) => {
        if (!o.custom) return;
        const t = text.trim();
        const exact = base.find((i) => plainLabel(i.label) === t.toLowerCase());
        if (t === '' || exact) {
          // Only touch the list when it changes: replacing items resets which row is active.
          if (showingCustom) {
            qp.items = base;
            showingCustom = false;
          }
          if (exact) qp.activeItems = [exact];
          return;
        }
        const verdict = o.custom.validate(t);
        const custom: Item = {
          label: o.custom.label(t),
          description: blocks(verdict) ? withIcon('error', verdictMessage(verdict) ?? '') : undefined,
          alwaysShow: true,
          custom: true,
        };
        qp.items = [...base, custom];
        showingCustom = true;
        // A valid custom value is what Enter should take, unless a listed row matches what was typed (then
        // the best match in the list stays active, as in any quick pick).
        const listed = base.some((i) => plainLabel(i.label).includes(t.toLowerCase()));
        if (!blocks(verdict) && !listed) qp.activeItems = [custom];
      };
      qp.onDidChangeValue(onValue);
      // A pick that takes typed values reopens with what was typed in its filter and left unconfirmed.
      const opened = o.custom ? (o.draft ?? '') : '';
      if (opened) {
        qp.value = opened;
        onValue(opened);
      }
      const leave = (kind: 'back' | 'cancel') =>
        finish(o.custom ? leaving(kind, qp.value, opened) : { kind });
      qp.onDidTriggerButton((b) => {
        if (b === vscode.QuickInputButtons.Back) leave('back');
      });
      qp.onDidAccept(() => {
        // What was typed decides first: the list may have been replaced while the user typed (the custom
        // row comes and goes), so the row the workbench accepted can belong to a list that is gone.
        const typed = qp.value.trim();
        const exact = typed ? base.find((i) => plainLabel(i.label) === typed.toLowerCase()) : undefined;
        const chosen = exact ?? qp.selectedItems[0] ?? qp.activeItems[0];
        const picked = chosen ?? (o.custom && typed ? { label: typed, custom: true } : undefined);
        if (!picked) return;
        if (picked.custom && o.custom) {
          const t = qp.value.trim();
          const verdict = o.custom.validate(t);
          if (blocks(verdict)) {
            qp.title = `${o.title}: ${typeof verdict === 'string' ? verdict : verdict?.message}`;
            return;
          }
          finish({ kind: 'value', value: o.custom.toValue(t) });
          return;
        }
        finish({ kind: 'value', value: picked.value as T });
      });
      qp.onDidHide(() => leave('cancel'));
      qp.show();
    });
  }

  pickMany<T>(o: PickManyOptions<T>): Promise<Answer<T[]>> {
    type Item = vscode.QuickPickItem & { value: T };
    return new Promise((resolve) => {
      const qp = vscode.window.createQuickPick<Item>();
      const items: Item[] = o.items.map((i) => ({
        label: i.label,
        description: i.description,
        detail: i.detail,
        value: i.value,
      }));
      qp.canSelectMany = true;
      dress(qp, o, items);
      qp.selectedItems = items.filter((_, n) => o.items[n].picked);
      let done = false;
      const finish = (a: Answer<T[]>) => {
        if (!done) {
          done = true;
          resolve(a);
          qp.dispose();
        }
      };
      qp.onDidTriggerButton((b) => {
        if (b === vscode.QuickInputButtons.Back) finish({ kind: 'back' });
      });
      qp.onDidAccept(() => finish({ kind: 'value', value: qp.selectedItems.map((i) => i.value) }));
      qp.onDidHide(() => finish({ kind: 'cancel' }));
      qp.show();
    });
  }

  async confirm(o: ConfirmOptions): Promise<string | undefined> {
    const options: vscode.MessageOptions = { modal: o.modal ?? true, detail: o.detail };
    const show =
      o.severity === 'error'
        ? notices.showErrorMessage
        : o.severity === 'info'
          ? notices.showInformationMessage
          : notices.showWarningMessage;
    // Without a modal there is no detail line: fold it into the message.
    const text = options.modal || !o.detail ? o.message : `${o.message} ${o.detail}`;
    return show(text, options, ...o.actions);
  }
}

/** A row's label as the user reads it (without `$(icon)`), in lower case, to compare with typed text. */
function plainLabel(label: string): string {
  return label
    .replace(/\$\([^)]*\)\s*/g, '')
    .trim()
    .toLowerCase();
}

/** What every pick of ours shows: its title and step, placeholder, Back, and its items (kept open on focus loss). */
function dress<I extends vscode.QuickPickItem>(
  qp: vscode.QuickPick<I>,
  o: Pick<PickOptions<unknown>, 'title' | 'step' | 'totalSteps' | 'placeholder' | 'canGoBack'>,
  items: I[],
): void {
  qp.title = o.title;
  qp.step = o.step;
  qp.totalSteps = o.totalSteps;
  qp.placeholder = o.placeholder;
  qp.ignoreFocusOut = true;
  qp.matchOnDescription = true;
  qp.buttons = o.canGoBack ? [vscode.QuickInputButtons.Back] : [];
  qp.items = items;
}
