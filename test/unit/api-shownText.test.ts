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
import { escapeMarkdown, inertLinks } from '../../src/model/shownText';
import { gpuTable } from '../../src/model/gpu';

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

describe('node and service text inside Markdown (tooltips)', () => {
  it('escapeMarkdown leaves no link, image, emphasis, code, HTML or table syntax, and no bare URL', () => {
    const hostile =
      'root@1.2.3.4: Permission denied [click](command:workbench.action.terminal.new) ![x](https://e.example/i.png) <img src=x> `code` **b** | cell | https://evil.example/a www.evil.example';
    const out = escapeMarkdown(hostile);
    assert.doesNotMatch(out, /(?<!\\)\]\(/, 'no [text](link)');
    assert.doesNotMatch(out, /(?<!\\)[<`*|]/, 'no HTML, code, emphasis or table cell');
    assert.doesNotMatch(out, /https:\/\//, 'no bare https://');
    assert.doesNotMatch(out, /www\.(?!\\)/, 'no bare www.');
    assert.equal(out.replace(/\\(.)/g, '$1'), hostile, 'every word kept');
    assert.equal(escapeMarkdown('a\nb\r\nc'), 'a b c', 'one line');
  });

  it('a GPU table cell holds a process name as text', () => {
    const table = gpuTable(
      [{ index: 0, uuid: 'GPU-1', name: 'H100' }],
      [{ gpuUuid: 'GPU-1', pid: 7, name: 'python [x](command:rm) | <b>' }],
    );
    const row = table.split('\n')[2];
    assert.equal(row.split(/(?<!\\)\|/).length, 8, 'still six cells');
    assert.doesNotMatch(row, /(?<!\\)\]\(|(?<!\\)</);
  });
});
