// The entry file of the account for what loads on first use (in dist/actions.js): another folder of
// src/vscode imports this folder's code only from here (eslint/layersRule.mjs).
export { offerDotenvFile, offerEnvToken, showRefusal, tellDotenvUntrusted } from './cliOffers';
export type { OfferDeps, TokenUser } from './cliOffers';
export { signIn, useOfferedToken } from './signIn';
