/** The account label: a structured field, else an e-mail or name in the message, else the message, shortened. */
import * as assert from 'node:assert/strict';
import { ACCOUNT_FALLBACK, accountLabel } from '../../src/model/account';

describe('account label', () => {
  const cases: Array<[string, unknown, string]> = [
    ['a structured e-mail', { email: 'a@b.co', uid: 'usr_1' }, 'a@b.co'],
    ['a structured name', { name: 'Ada Lovelace' }, 'Ada Lovelace'],
    ['a nested user record', { user: { username: 'ada' } }, 'ada'],
    ['an e-mail in the message', { message: 'Logged in as x@y.z' }, 'x@y.z'],
    [
      'an e-mail in a coloured, multi-line message',
      { message: 'Hi!\n\u001b[1mYou are ada@example.org\u001b[0m' },
      'ada@example.org',
    ],
    ['a name in the message', { message: 'Signed in as ada.' }, 'ada'],
    ['the message over a bare id', { uid: 'usr_1', message: 'Logged in as x@y.z' }, 'x@y.z'],
    ['a bare id when the message names nobody', { uid: 'usr_1', message: 'ok' }, 'usr_1'],
    [
      'the message itself, shortened',
      { message: 'Token valid for organisation 42 until the end of the year' },
      'Token valid for organisation 42 until t…',
    ],
    ['nothing usable', {}, ACCOUNT_FALLBACK],
    ['not a record', 'hello', ACCOUNT_FALLBACK],
  ];
  for (const [what, me, want] of cases) {
    it(`uses ${what}`, () => assert.equal(accountLabel(me), want));
  }

  it('never gives more than 40 characters', () => {
    assert.ok(accountLabel({ name: 'n'.repeat(200) }).length <= 40);
    assert.ok(accountLabel({ message: 'm '.repeat(200) }).length <= 40);
  });
});
