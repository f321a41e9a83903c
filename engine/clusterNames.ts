// Names the engine gives a cluster created without one: adjective-noun-number, like the service.

import { randomBytes } from 'node:crypto';

const ADJECTIVES = [
  'amber',
  'brisk',
  'calm',
  'deft',
  'eager',
  'fleet',
  'grand',
  'hardy',
  'keen',
  'lucid',
  'nimble',
  'quiet',
  'rapid',
  'steady',
  'swift',
  'vivid',
];
const NOUNS = [
  'falcon',
  'otter',
  'comet',
  'cedar',
  'harbor',
  'lynx',
  'meteor',
  'orca',
  'pine',
  'quasar',
  'raven',
  'summit',
  'tundra',
  'vertex',
  'willow',
  'zephyr',
];

/** A fresh name that `taken` does not know. */
export function generateClusterName(taken: (name: string) => boolean): string {
  for (;;) {
    const b = randomBytes(3);
    const name = `${ADJECTIVES[b[0] % ADJECTIVES.length]}-${NOUNS[b[1] % NOUNS.length]}-${(b[2] % 90) + 10}`;
    if (!taken(name)) return name;
  }
}
