/**
 * The service's messages as the UI shows them in notifications: every `message` of a response (and an
 * operation's external_message) comes out of the schemas with any `[words](target)` link broken
 * (inertLinks), while the fields the extension uses as data (a credentials file's text, a command) stay
 * exactly as sent.
 */
import * as assert from 'node:assert/strict';
import * as S from '../../src/api/schemas';
import { QuoteResponse } from '../../src/api/quotes';
import { VolumeCreateResponse } from '../../src/api/volumeSchemas';
import { inertLinks } from '../../src/model/shownText';

const LINK = 'Done. [Open a terminal](command:workbench.action.terminal.new)';
const SHOWN = 'Done. [Open a terminal] (command:workbench.action.terminal.new)';

describe('shownText: the service’s messages carry no link into a notification', () => {
  it('inertLinks breaks every link and keeps every word', () => {
    assert.equal(inertLinks(LINK), SHOWN);
    assert.equal(inertLinks('a](b) c](d)'), 'a] (b) c] (d)');
    assert.equal(inertLinks('no link [here] (x)'), 'no link [here] (x)');
  });

  it('the message of a create, an edit, a destroy and a plain answer', () => {
    assert.equal(S.ClusterCreateResponse().parse({ cluster_id: 'c-1', message: LINK }).message, SHOWN);
    assert.equal(S.EditResponse().parse({ message: LINK }).message, SHOWN);
    assert.equal(S.DestroyResponse().parse({ message: LINK }).message, SHOWN);
    assert.equal(S.MessageResponse().parse({ message: LINK }).message, SHOWN);
    assert.equal(S.MessageResponse().parse({ message: null }).message, null);
    assert.equal(S.MessageResponse().parse({}).message, undefined);
  });

  it('an operation’s external message, a quote’s and a volume’s message', () => {
    const info = S.RequestInfo().parse({ request_id: 'r', status: 'FAILED', external_message: LINK });
    assert.equal(info.external_message, SHOWN);
    assert.equal(QuoteResponse().parse({ message: LINK }).message, SHOWN);
    assert.equal(VolumeCreateResponse().parse({ message: LINK }).message, SHOWN);
  });

  it('data fields stay as sent', () => {
    const cmd = S.SshCommandResponse().parse({ command: 'ssh a](b', message: LINK });
    assert.equal(cmd.command, 'ssh a](b');
    assert.equal(cmd.message, SHOWN);
  });
});
