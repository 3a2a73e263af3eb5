// Running a part of a playbook: Ansible's tag rules as one table, compared whole, and the same table
// checked against Debian's ansible-playbook (--list-tasks) as the oracle; --start-at-task; the
// refusals of unknown words with their suggestions.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import YAML from 'yaml';
import { InputError, UsageError } from '../../runner/core/errors.js';
import { taskOrder } from '../../runner/playbook/compile.js';
import { definePlaybook } from '../../runner/playbook/define.js';
import { leftOutTasks, runsWithTags, tagList } from '../../runner/playbook/select-tasks.js';
import { directory } from '../../tasks/linux/index.js';

const step = directory({ path: '/srv/x' });

/** The tasks of Ansible's own illustration of the special tags, and a task with two tags. */
const TASKS: Record<string, string[]> = {
  untagged: [],
  normal: ['normal'],
  twoTags: ['normal', 'other'],
  never: ['never', 'run-never'],
  always: ['always', 'exclude-always'],
};

/** --tags / --skip-tags as typed -> the tasks that run. */
const CASES: [tags: string, skip: string][] = [
  ['', ''],
  ['run-never', ''],
  ['untagged', ''],
  ['all', ''],
  ['tagged', ''],
  ['untagged,run-never', ''],
  ['all,run-never', ''],
  ['never', ''],
  ['other', ''],
  ['', 'always'],
  ['', 'exclude-always'],
  ['all,run-never', 'always'],
  ['', 'all'],
  ['', 'all,always'],
  ['', 'tagged'],
  ['', 'untagged'],
  ['normal', 'other'],
  ['tagged', 'normal'],
  ['run-never', 'never'],
];

const selected = (tags: string, skip: string) =>
  Object.keys(TASKS).filter((name) => runsWithTags(TASKS[name]!, tagList([tags]), tagList([skip])));

const EXPECTED: Record<string, string[]> = {
  '--tags  --skip-tags ': ['untagged', 'normal', 'twoTags', 'always'],
  '--tags run-never --skip-tags ': ['never', 'always'],
  '--tags untagged --skip-tags ': ['untagged', 'always'],
  '--tags all --skip-tags ': ['untagged', 'normal', 'twoTags', 'always'],
  '--tags tagged --skip-tags ': ['normal', 'twoTags', 'always'],
  '--tags untagged,run-never --skip-tags ': ['untagged', 'never', 'always'],
  '--tags all,run-never --skip-tags ': ['untagged', 'normal', 'twoTags', 'never', 'always'],
  '--tags never --skip-tags ': ['never', 'always'],
  '--tags other --skip-tags ': ['twoTags', 'always'],
  '--tags  --skip-tags always': ['untagged', 'normal', 'twoTags'],
  '--tags  --skip-tags exclude-always': ['untagged', 'normal', 'twoTags'],
  '--tags all,run-never --skip-tags always': ['untagged', 'normal', 'twoTags', 'never'],
  '--tags  --skip-tags all': ['always'],
  '--tags  --skip-tags all,always': [],
  '--tags  --skip-tags tagged': ['untagged'],
  '--tags  --skip-tags untagged': ['normal', 'twoTags', 'always'],
  '--tags normal --skip-tags other': ['normal', 'always'],
  '--tags tagged --skip-tags normal': ['always'],
  '--tags run-never --skip-tags never': ['always'],
};

test("Ansible's tag rules: always, never, all, tagged, untagged, and --skip-tags beating --tags", (t) => {
  const got = Object.fromEntries(
    CASES.map(([tags, skip]) => [`--tags ${tags} --skip-tags ${skip}`, selected(tags, skip)]),
  );
  t.deepEqual(got, EXPECTED);
});

test('the same table as ansible-playbook --list-tasks selects it (the oracle: Debian ansible-core)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-tags-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const tasks = Object.entries(TASKS).map(([name, tags]) => ({
    name,
    'ansible.builtin.debug': { msg: name },
    ...(tags.length ? { tags } : {}),
  }));
  const file = join(dir, 'tags.yml');
  writeFileSync(file, YAML.stringify([{ hosts: 'all', gather_facts: false, tasks }]));
  const run = promisify(execFile);
  const listed = async ([tags, skip]: [string, string]) => {
    const flags = [...(tags ? ['--tags', tags] : []), ...(skip ? ['--skip-tags', skip] : [])];
    const { stdout } = await run('ansible-playbook', ['-i', 'localhost,', file, '--list-tasks', ...flags], {
      env: { ...process.env, ANSIBLE_LOCAL_TEMP: dir, ANSIBLE_NOCOLOR: '1' },
    });
    const names = [...stdout.matchAll(/^ {6}(\S+)\tTAGS:/gm)].map((m) => m[1]!);
    return [`--tags ${tags} --skip-tags ${skip}`, names] as const;
  };
  t.deepEqual(Object.fromEntries(await Promise.all(CASES.map(listed))), EXPECTED);
});

test('--tags values: comma lists, repeatable, blanks dropped', (t) => {
  t.deepEqual(
    [tagList(undefined), tagList(['a,b', 'c']), tagList([' a , ,b ']), tagList([''])],
    [[], ['a', 'b', 'c'], ['a', 'b'], []],
  );
});

const pb = definePlaybook({
  name: 'onboard',
  description: '',
  tasks: {
    docker: { on: 'all', step, tags: ['docker'] },
    kubelet: { on: 'all', step, needs: ['docker'], tags: ['kubernetes', 'kubelet'] },
    cni: { on: 'all', step, tags: ['kubernetes', 'cni'] },
    debugDump: { on: 'all', step, tags: ['never', 'debug'] },
    facts: { on: 'all', step, tags: ['always'] },
    report: { on: 'all', step, needs: ['kubelet'] },
  },
});
const order = taskOrder(pb);

test('the tasks a run leaves out, with why: --start-at-task first, then --tags, then --skip-tags', (t) => {
  const table = [
    leftOutTasks(pb, order, { tags: [], skipTags: [] }),
    leftOutTasks(pb, order, { tags: ['kubernetes'], skipTags: ['cni'] }),
    leftOutTasks(pb, order, { tags: [], skipTags: [], startAt: 'kubelet' }),
    leftOutTasks(pb, order, { tags: ['debug'], skipTags: ['always'], startAt: 'cni' }),
  ].map((m) => Object.fromEntries(m));
  t.deepEqual(order, ['docker', 'kubelet', 'cni', 'debugDump', 'facts', 'report']);
  t.deepEqual(table, [
    { debugDump: 'left out: tagged never (it runs only with --tags naming it)' },
    {
      docker: 'left out by --tags',
      cni: 'left out by --skip-tags',
      debugDump: 'left out by --tags',
      report: 'left out by --tags',
    },
    {
      docker: 'left out by --start-at-task',
      debugDump: 'left out: tagged never (it runs only with --tags naming it)',
    },
    {
      docker: 'left out by --start-at-task',
      kubelet: 'left out by --start-at-task',
      cni: 'left out by --tags',
      facts: 'left out by --skip-tags',
      report: 'left out by --tags',
    },
  ]);
});

test('an unknown tag or task is a usage error naming what exists, with a suggestion', (t) => {
  const refusals = [
    { tags: ['kubelt'], skipTags: [] },
    { tags: [], skipTags: ['dockr'] },
    { tags: ['zzz'], skipTags: [] },
    { tags: [], skipTags: [], startAt: 'kubelett' },
  ].map((sel) => {
    const e = t.throws(() => leftOutTasks(pb, order, sel), { instanceOf: UsageError });
    return [e?.exitCode, e?.message];
  });
  const tags =
    'its tags: always, cni, debug, docker, kubelet, kubernetes, never (and all, always, never, tagged, untagged; `play onboard --list-tags`)';
  t.deepEqual(refusals, [
    [64, `--tags kubelt: no task of onboard has this tag; did you mean kubelet? ${tags}`],
    [64, `--skip-tags dockr: no task of onboard has this tag; did you mean docker? ${tags}`],
    [64, `--tags zzz: no task of onboard has this tag; ${tags}`],
    [
      64,
      '--start-at-task kubelett: onboard has no such task; did you mean kubelet? its tasks in run order: `play onboard --list-tasks`',
    ],
  ]);
});

test("a task's tags must be words; the command line's special words are not a task's", (t) => {
  const bad = (tags: unknown) => {
    const p = definePlaybook({ name: 'p', description: '', tasks: { a: { on: 'all', step, tags: tags as string[] } } });
    return t.throws(() => taskOrder(p), { instanceOf: InputError })?.message;
  };
  t.deepEqual(
    [bad('docker'), bad(['']), bad(['a,b']), bad(['two words']), bad([3]), bad(['tagged'])],
    [
      "playbook p: task 'a': tags must be a list of words, e.g. tags: ['docker']",
      `playbook p: task 'a': tags: "" is not a word (letters, digits, - _ . ; no spaces or commas)`,
      `playbook p: task 'a': tags: "a,b" is not a word (letters, digits, - _ . ; no spaces or commas)`,
      `playbook p: task 'a': tags: "two words" is not a word (letters, digits, - _ . ; no spaces or commas)`,
      `playbook p: task 'a': tags: 3 is not a word (letters, digits, - _ . ; no spaces or commas)`,
      "playbook p: task 'a': tags: 'tagged' is a word of --tags, not a task's tag (a task may have always or never)",
    ],
  );
});
