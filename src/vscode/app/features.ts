/**
 * The list sections, named once: each folder exports its descriptor (shared/listSection.ts) and this list is
 * the only place that names them. Activation sets each one up (its view, controller and list commands), its
 * command table is registered (actionCommands.ts), and its parts reach the actions (onUse/actions.ts) and the
 * test API under its name. Adding a list section is a line here (CONTRIBUTING.md, "Adding a sidebar section").
 */
import { JOBS_SECTION } from '../jobs';
import type { Core } from '../shared/extensionCore';
import { SSH_KEYS_SECTION } from '../sshKeys';
import { VOLUMES_SECTION } from '../volumes';

const SECTIONS = [JOBS_SECTION, VOLUMES_SECTION, SSH_KEYS_SECTION] as const;

type Section = (typeof SECTIONS)[number];

/** Each section's parts (controller, tree, view…), by its name. */
export type Sections = { readonly [S in Section as S['name']]: ReturnType<S['setup']> };

/** Set every section up (at activation). */
export function setupSections(core: Core): Sections {
  return Object.fromEntries(SECTIONS.map((s) => [s.name, s.setup(core)])) as unknown as Sections;
}

/** Every section's table of commands whose work loads on first use. */
export const SECTION_COMMANDS = SECTIONS.map((s) => s.commands);
