/**
 * A list section (Jobs, Volumes, SSH Keys): the one object its folder exports to the composition root, which
 * lists the sections once (src/vscode/app/features.ts) and derives the rest: it calls each section's setup,
 * registers its command table, and hands its parts to the actions and the test API under its name. Nothing in
 * shared/ or testing/ names a section. A section's view is `tensorpool.<name>` and its Mine / Organisation
 * scope `tensorpool.<name>IncludeOrg` (a context key and a globalState key: SectionScopeKey, storedState.ts).
 */
import type * as vscode from 'vscode';
import type { ActionCommand } from './commandTable';
import type { Core } from './extensionCore';
import type { ViewedList } from './viewedList';

/** What a section's setup makes: its list, the tree drawing it and the view showing it (createListView). */
export interface SectionParts {
  readonly controller: ViewedList<{ readonly message: string | undefined }>;
  readonly tree: vscode.TreeDataProvider<unknown>;
  readonly view: vscode.TreeView<unknown>;
}

export interface SectionFeature<N extends string, P extends SectionParts, A> {
  /** Its view is `tensorpool.<name>`, its scope key `tensorpool.<name>IncludeOrg`; the actions and the test
   *  API find its parts under this name. */
  readonly name: N;
  /** Make the parts and register the view and the commands activation handles (refresh, Mine /
   *  Organisation, the text answer: createListView). Called once, at activation. */
  setup(core: Core): P;
  /** The commands whose work loads on first use (shared/commandTable.ts), on the part of the actions they use. */
  readonly commands: readonly ActionCommand<A>[];
}

/** A section's descriptor, with its name's literal type kept (the composition root keys its parts by it). */
export function defineSection<const N extends string, P extends SectionParts, A>(
  section: SectionFeature<N, P, A>,
): SectionFeature<N, P, A> {
  return section;
}
