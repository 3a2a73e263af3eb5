// The three-run test for every Linux step, over real SSH against lab hosts: check reports the
// change and changes nothing, apply makes it, a second run changes nothing; verified on the host.
import { randomBytes } from 'node:crypto';
import test from 'ava';
import type { AnyStep } from '../../runner/core/step.js';
import { command, directory, file, lineInFile, sysctl, user } from '../../tasks/linux/index.js';
import { ensureLab, onLabHost, type Lab } from '../helpers/lab.js';
import { runStep, scratch } from '../helpers/play.js';

let lab: Lab;
test.before(async () => {
  lab = await ensureLab({ linux: 4 });
});

const onHost = (host: string, cmd: string) => onLabHost(lab, host, cmd);

async function threeRuns(t: any, host: string, step: AnyStep, observe: () => Promise<string>) {
  const before = await observe();
  const check = await runStep(lab, host, step, 'check');
  t.is(check.step.status, 'changed', `check: ${JSON.stringify(check.step)}`);
  t.not(check.step.action, 'noop');
  t.is(await observe(), before, 'check mode changed the host');
  const apply = await runStep(lab, host, step);
  t.is(apply.step.status, 'changed', `apply: ${apply.step.error}`);
  t.is(apply.step.action, check.step.action, 'apply did what the plan said');
  t.deepEqual(apply.step.fields, check.step.fields);
  const again = await runStep(lab, host, step);
  t.is(again.step.status, 'ok', `second run: ${JSON.stringify(again.step)}`);
  t.is(again.step.action, 'noop');
  return { check, apply };
}

test('directory: create, then mode drift is repaired', async (t) => {
  const dir = scratch();
  await threeRuns(t, 'linux1', directory({ path: `${dir}/a b`, mode: '0750' }), () =>
    onHost('linux1', `stat -c %a ${dir}/'a b' 2>&1 || true`),
  );
  t.is((await onHost('linux1', `stat -c '%F %a' ${dir}/'a b'`)).trim(), 'directory 750');
  await onHost('linux1', `chmod 700 ${dir}/'a b'`);
  const { check } = await threeRuns(t, 'linux1', directory({ path: `${dir}/a b`, mode: '0750' }), () =>
    onHost('linux1', `stat -c %a ${dir}/'a b'`),
  );
  t.deepEqual(check.step.fields, ['mode']);
  t.deepEqual(check.step.before, { mode: '0700' });
});

test('file: content and mode, with a hostile name and content arriving literally', async (t) => {
  const dir = scratch();
  await onHost('linux2', `mkdir -p ${dir}`);
  const path = `${dir}/x'; touch pwned; echo '$(reboot)`;
  const content = "x'; touch /tmp/pwned; echo '\n$(reboot)\n`id`\n";
  const { check } = await threeRuns(t, 'linux2', file({ path, content, mode: '0600' }), () =>
    onHost('linux2', `ls -A ${dir}`),
  );
  t.regex(check.step.textDiff ?? '', /\+\$\(reboot\)/);
  t.is(await onHost('linux2', `cat ${dir}/*`), content);
  t.is((await onHost('linux2', `ls -A ${dir} | wc -l; stat -c %a ${dir}/x*`)).trim(), '1\n600');
  t.is((await onHost('linux2', 'test -e /tmp/pwned && echo yes || echo no')).trim(), 'no');
});

test('lineInFile: replace the line a regex matches, keep the rest', async (t) => {
  const dir = scratch();
  await onHost('linux3', `mkdir -p ${dir} && printf 'a=1\\nport=80\\nb=2\\n' > ${dir}/s.ini`);
  await threeRuns(t, 'linux3', lineInFile({ path: `${dir}/s.ini`, regexp: '^port=', line: 'port=8080' }), () =>
    onHost('linux3', `cat ${dir}/s.ini`),
  );
  t.is(await onHost('linux3', `cat ${dir}/s.ini`), 'a=1\nport=8080\nb=2\n');
});

test('command with creates: runs once', async (t) => {
  const dir = scratch();
  await onHost('linux1', `mkdir -p ${dir}`);
  await threeRuns(
    t,
    'linux1',
    command({ command: ['sh', '-c', `echo run >> ${dir}/log; touch ${dir}/done`], creates: `${dir}/done` }),
    () => onHost('linux1', `cat ${dir}/log 2>/dev/null; true`),
  );
  t.is(await onHost('linux1', `cat ${dir}/log`), 'run\n');
});

test('sysctl: live value and persisted file, per host', async (t) => {
  const conf = `/etc/sysctl.d/${scratch('e2e').slice(5)}.conf`;
  await onHost('linux4', 'sysctl -qw net.ipv4.ip_forward=0');
  await threeRuns(t, 'linux4', sysctl({ key: 'net.ipv4.ip_forward', value: 1, file: conf }), () =>
    onHost('linux4', `sysctl -n net.ipv4.ip_forward; cat ${conf} 2>/dev/null; true`),
  );
  t.is((await onHost('linux4', 'sysctl -n net.ipv4.ip_forward')).trim(), '1');
  t.regex(await onHost('linux4', `cat ${conf}`), /^net\.ipv4\.ip_forward = 1$/m);
  await onHost('linux4', `sysctl -qw net.ipv4.ip_forward=0; rm -f ${conf}`);
});

test('user: created with shell, home, groups and comment; drift repaired; absent removes it', async (t) => {
  // Lab hosts share /etc/passwd with the machine: a name of its own, removed whatever happens.
  const name = `pe2e${randomBytes(3).toString('hex')}`;
  const home = `${scratch()}/home`;
  t.teardown(() => onHost('linux4', `userdel ${name} 2>/dev/null; true`));
  const want = user({ name, shell: '/bin/sh', home, groups: ['adm'], comment: 'play e2e' });
  const passwd = () =>
    onHost('linux4', `getent passwd ${name} | cut -d: -f5-7 || true; id -Gn ${name} 2>/dev/null || true`);
  await threeRuns(t, 'linux4', want, passwd);
  t.is(await passwd(), `play e2e:${home}:/bin/sh\n${name} adm\n`);
  t.is((await onHost('linux4', `stat -c %U ${home}`)).trim(), name, 'useradd -m made the home');
  await onHost('linux4', `usermod -s /bin/bash -G '' ${name}`);
  const { check } = await threeRuns(t, 'linux4', want, passwd);
  t.deepEqual([check.step.fields, check.step.before], [['shell', 'groups'], { shell: '/bin/bash', groups: [] }]);
  await threeRuns(t, 'linux4', user({ name, state: 'absent' }), passwd);
  t.is(await passwd(), '');
});
