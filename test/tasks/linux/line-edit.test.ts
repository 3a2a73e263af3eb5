import test from 'ava';
import { editLineInFile, type LineEdit } from '../../../tasks/linux/line-edit.js';
import {
  assignmentRegExp,
  normalizeSysctlValue,
  persistedValue,
  setPersisted,
} from '../../../tasks/linux/sysctl-d-file.js';

const lineTable: {
  name: string;
  text: string | null;
  line: string;
  regexp?: string;
  out: string;
  how: LineEdit['how'];
  replaced?: string;
}[] = [
  { name: 'missing file: just the line', text: null, line: 'a=1', out: 'a=1\n', how: 'appended' },
  { name: 'empty file', text: '', line: 'a=1', out: 'a=1\n', how: 'appended' },
  { name: 'append after a final newline', text: 'x\n', line: 'a=1', out: 'x\na=1\n', how: 'appended' },
  { name: 'append fixes a missing final newline', text: 'x', line: 'a=1', out: 'x\na=1\n', how: 'appended' },
  { name: 'a file that is one empty line', text: '\n', line: 'a=1', out: '\na=1\n', how: 'appended' },
  { name: 'identical line exists: noop', text: 'x\na=1\ny\n', line: 'a=1', out: 'x\na=1\ny\n', how: 'unchanged' },
  { name: 'identical last line without newline: noop', text: 'x\na=1', line: 'a=1', out: 'x\na=1', how: 'unchanged' },
  { name: 'a longer line is not identical', text: 'a=12\n', line: 'a=1', out: 'a=12\na=1\n', how: 'appended' },
  {
    name: 'regexp replaces the matching line',
    text: 'x\nport=80\ny\n',
    line: 'port=8080',
    regexp: '^port=',
    out: 'x\nport=8080\ny\n',
    how: 'replaced',
    replaced: 'port=80',
  },
  {
    name: 'regexp: the LAST match is replaced',
    text: 'port=1\nport=2\nz\n',
    line: 'port=3',
    regexp: '^port=',
    out: 'port=1\nport=3\nz\n',
    how: 'replaced',
    replaced: 'port=2',
  },
  {
    name: 'regexp: last match already equal is a noop (earlier ones stay)',
    text: 'port=1\nport=3\n',
    line: 'port=3',
    regexp: '^port=',
    out: 'port=1\nport=3\n',
    how: 'unchanged',
  },
  {
    name: 'regexp without match, identical line exists: noop',
    text: 'a\nport=3\n',
    line: 'port=3',
    regexp: '^listen=',
    out: 'a\nport=3\n',
    how: 'unchanged',
  },
  {
    name: 'regexp without match: append',
    text: 'a\n',
    line: 'port=3',
    regexp: '^port=',
    out: 'a\nport=3\n',
    how: 'appended',
  },
  {
    name: 'regexp is a search, not anchored',
    text: 'a # port=1\n',
    line: 'p',
    regexp: 'port=',
    out: 'p\n',
    how: 'replaced',
    replaced: 'a # port=1',
  },
  {
    name: 'replacing keeps a missing final newline',
    text: 'a\nport=1',
    line: 'port=2',
    regexp: '^port',
    out: 'a\nport=2',
    how: 'replaced',
    replaced: 'port=1',
  },
  {
    name: 'CRLF: the \\r is ignored when comparing',
    text: 'a=1\r\nb\r\n',
    line: 'a=1',
    out: 'a=1\r\nb\r\n',
    how: 'unchanged',
  },
  {
    name: 'CRLF: a replaced line keeps its \\r',
    text: 'port=1\r\nb\r\n',
    line: 'port=2',
    regexp: '^port=1$',
    out: 'port=2\r\nb\r\n',
    how: 'replaced',
    replaced: 'port=1',
  },
  {
    name: 'special characters are text',
    text: "it's $(x)\n",
    line: "x'; touch /tmp/pwned; echo '",
    out: "it's $(x)\nx'; touch /tmp/pwned; echo '\n",
    how: 'appended',
  },
  { name: 'an empty line as the line', text: 'a\n', line: '', out: 'a\n\n', how: 'appended' },
  { name: 'an empty line that exists', text: 'a\n\nb\n', line: '', out: 'a\n\nb\n', how: 'unchanged' },
];

for (const row of lineTable) {
  test(`lineInFile content: ${row.name}`, (t) => {
    const edit = editLineInFile(row.text, row.line, row.regexp === undefined ? undefined : new RegExp(row.regexp));
    t.is(edit.text, row.out);
    t.is(edit.how, row.how);
    t.is(edit.replaced, row.replaced ?? null);
    // Applying the edit again changes nothing: the step converges.
    t.is(
      editLineInFile(edit.text, row.line, row.regexp === undefined ? undefined : new RegExp(row.regexp)).how,
      'unchanged',
    );
  });
}

const persistedTable: { name: string; text: string | null; value: string | null }[] = [
  { name: 'no file', text: null, value: null },
  { name: 'key absent', text: 'vm.swappiness = 10\n', value: null },
  { name: 'spaces around =', text: 'net.ipv4.ip_forward = 1\n', value: '1' },
  { name: 'no spaces', text: 'net.ipv4.ip_forward=0\n', value: '0' },
  { name: 'slashes instead of dots', text: 'net/ipv4/ip_forward = 1\n', value: '1' },
  { name: 'leading - (ignore errors) and indentation', text: '  -net.ipv4.ip_forward = 1\n', value: '1' },
  { name: 'the last assignment wins', text: 'net.ipv4.ip_forward = 1\nnet.ipv4.ip_forward = 0\n', value: '0' },
  {
    name: 'comments are not assignments',
    text: 'net.ipv4.ip_forward = 1\n# net.ipv4.ip_forward = 0\n; net.ipv4.ip_forward = 0\n',
    value: '1',
  },
  { name: 'a longer key is another key', text: 'net.ipv4.ip_forward_x = 1\n', value: null },
  { name: 'dots are not wildcards', text: 'netXipv4.ip_forward = 1\n', value: null },
  {
    name: 'multi-value, whitespace normalized',
    text: 'net.ipv4.ip_local_port_range =  32768\t60999 \r\n',
    value: '32768 60999',
  },
];

for (const row of persistedTable) {
  test(`sysctl persisted value: ${row.name}`, (t) => {
    t.is(
      persistedValue(
        row.text,
        row.text?.includes('port_range') ? 'net.ipv4.ip_local_port_range' : 'net.ipv4.ip_forward',
      ),
      row.value,
    );
  });
}

const setTable: { name: string; text: string | null; out: string }[] = [
  { name: 'creates the file', text: null, out: 'net.ipv4.ip_forward = 1\n' },
  { name: 'appends', text: '# play\nvm.swappiness = 10', out: '# play\nvm.swappiness = 10\nnet.ipv4.ip_forward = 1\n' },
  {
    name: 'rewrites the last assignment only',
    text: 'net.ipv4.ip_forward=0\nx = 1\nnet/ipv4/ip_forward = 0\n',
    out: 'net.ipv4.ip_forward=0\nx = 1\nnet.ipv4.ip_forward = 1\n',
  },
  {
    name: 'leaves comments alone',
    text: '# net.ipv4.ip_forward = 0\n',
    out: '# net.ipv4.ip_forward = 0\nnet.ipv4.ip_forward = 1\n',
  },
];

for (const row of setTable) {
  test(`sysctl new file content: ${row.name}`, (t) => {
    const edit = setPersisted(row.text, 'net.ipv4.ip_forward', '1');
    t.is(edit.text, row.out);
    t.is(persistedValue(edit.text, 'net.ipv4.ip_forward'), '1');
  });
}

test('sysctl values: whitespace runs collapse, 0 stays 0', (t) => {
  t.is(normalizeSysctlValue(' 32768\t\t60999\n'), '32768 60999');
  t.is(normalizeSysctlValue('0'), '0');
});

test('sysctl keys with a dash match literally', (t) => {
  t.true(assignmentRegExp('net.ipv4.conf.br-lan.forwarding').test('net.ipv4.conf.br-lan.forwarding=1'));
  t.false(assignmentRegExp('net.ipv4.conf.br-lan.forwarding').test('net.ipv4.conf.brXlan.forwarding=1'));
});
