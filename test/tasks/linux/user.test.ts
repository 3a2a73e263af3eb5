// linux.user, pure: option errors, the diff as whole changes, and the probe's output parsed (with junk
// refused). Over real SSH: test/e2e/linux-steps.test.ts.
import test from 'ava';
import { StepOptionError } from '../../../runner/core/errors.js';
import { diffUser, parseUserProbe, user, type UserActual } from '../../../tasks/linux/index.js';

const out = (stdout: string) => ({ stdout, stderr: '', code: 0 });

const optionErrors: [string, unknown, string, string][] = [
  ['no name', {}, 'name', 'must be a string, got nothing'],
  [
    'a name useradd refuses',
    { name: 'Bob Smith' },
    'name',
    'must be a user name (lowercase letters, digits, _ and -), got "Bob Smith"',
  ],
  [
    'a name that is an option',
    { name: '-o' },
    'name',
    'must be a user name (lowercase letters, digits, _ and -), got "-o"',
  ],
  ['an unknown state', { name: 'app', state: 'locked' }, 'state', `must be 'present' or 'absent', got "locked"`],
  ['a relative shell', { name: 'app', shell: 'bash' }, 'shell', 'must be an absolute path, got the string "bash"'],
  ['groups not a list', { name: 'app', groups: 'wheel' }, 'groups', 'must be a list of group names'],
  ['a group name with a comma', { name: 'app', groups: ['a,b'] }, 'groups', 'must be a list of group names, got "a,b"'],
  [
    'a colon in the comment',
    { name: 'app', comment: 'a:b' },
    'comment',
    'must not contain a colon, a newline or a NUL byte',
  ],
  [
    'settings with absent',
    { name: 'app', state: 'absent', shell: '/bin/sh' },
    'state',
    "is 'absent': shell, home, groups and comment do not apply",
  ],
  [
    'an unknown option',
    { name: 'app', uid: 1500 },
    'uid',
    'is not an option of linux.user (known: name, state, shell, home, groups, comment)',
  ],
];

for (const [name, options, field, message] of optionErrors) {
  test(`user options: ${name}`, (t) => {
    const e = t.throws(() => user(options as never), { instanceOf: StepOptionError });
    t.deepEqual(
      { kind: e.kind, field: e.field, message: e.message },
      {
        kind: 'linux.user',
        field,
        message: `linux.user: option '${field}' ${message}`,
      },
    );
  });
}

const APP: UserActual = { shell: '/bin/sh', home: '/home/app', groups: ['adm'], comment: '' };

const diffs: [string, Parameters<typeof user>[0], UserActual | null, unknown][] = [
  [
    'absent: created with every setting given, in one field',
    { name: 'app', shell: '/bin/bash', groups: ['wheel', 'adm', 'wheel'] },
    null,
    {
      action: 'create',
      fields: ['exists'],
      before: { exists: false },
      after: { exists: true, shell: '/bin/bash', groups: ['adm', 'wheel'] },
    },
  ],
  [
    'absent and nothing given: created',
    { name: 'app' },
    null,
    { action: 'create', fields: ['exists'], before: { exists: false }, after: { exists: true } },
  ],
  [
    'present, nothing given: nothing to do',
    { name: 'app' },
    APP,
    { action: 'noop', fields: [], before: null, after: null },
  ],
  [
    'shell and groups differ; home not given is not managed',
    { name: 'app', shell: '/bin/bash', groups: [] },
    APP,
    {
      action: 'update',
      fields: ['shell', 'groups'],
      before: { shell: '/bin/sh', groups: ['adm'] },
      after: { shell: '/bin/bash', groups: [] },
    },
  ],
  [
    'the same groups in another order: nothing to do',
    { name: 'app', groups: ['adm'] },
    APP,
    { action: 'noop', fields: [], before: null, after: null },
  ],
  [
    'home and comment',
    { name: 'app', home: '/srv/app', comment: 'App server' },
    APP,
    {
      action: 'update',
      fields: ['home', 'comment'],
      before: { home: '/home/app', comment: '' },
      after: { home: '/srv/app', comment: 'App server' },
    },
  ],
  [
    'absent wanted, present: deleted',
    { name: 'app', state: 'absent' },
    APP,
    { action: 'delete', fields: ['exists'], before: { exists: true }, after: { exists: false } },
  ],
  [
    'absent wanted, absent: nothing to do',
    { name: 'app', state: 'absent' },
    null,
    { action: 'noop', fields: [], before: null, after: null },
  ],
];

for (const [name, options, actual, expected] of diffs) {
  test(`user diff: ${name}`, (t) => {
    t.deepEqual(diffUser(user(options).desired, actual), expected);
  });
}

test('user probe: absent, present (primary group left out of the supplementary ones), and junk refused', (t) => {
  t.is(parseUserProbe('user app', out('user-absent\n')), null);
  t.deepEqual(
    parseUserProbe(
      'user app',
      out('passwd app:x:1001:1001:App server,,,:/home/app:/bin/bash\nprimary app\ngroups app wheel adm\n'),
    ),
    { comment: 'App server,,,', home: '/home/app', shell: '/bin/bash', groups: ['adm', 'wheel'] },
  );
  t.deepEqual(parseUserProbe('user app', out('passwd app:x:1001:1001:::\nprimary app\ngroups app\n')), {
    comment: '',
    home: '',
    shell: '',
    groups: [],
  });
  t.throws(() => parseUserProbe('user app', out('passwd app:x:1001\nprimary app\ngroups app\n')), {
    message: /a passwd entry has 7 fields, got 3/,
  });
  t.throws(() => parseUserProbe('user app', out('passwd app:x:1:1:::/bin/sh\nprimary app\n')), { message: /groups/ });
  t.throws(() => parseUserProbe('user app', out('user-absent\nextra\n')));
});
