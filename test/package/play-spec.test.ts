// play init's dependency spec for play under the key `play`: a version, range or tag becomes the npm alias
// of the registry's package (npm's own `play` is an unrelated package); anything else stays as npm
// reads it. A checkout's default (its folder) is in test/cli/init-command.test.ts; an installed copy's
// default (the alias at its own version) in install-tarball.test.ts, where play runs installed.
import test from 'ava';
import { playSpec } from '../../runner/cli/init-command.js';

test('a version, range or tag names the registry package by alias; other specs pass through', (t) => {
  const specs = ['0.2.0', '^0.2', '~1.2.3-rc.1', '>=0.1 <0.3', 'latest', 'npm:play-runner@1', 'github:org/play'];
  t.deepEqual(
    specs.map((s) => [s, playSpec(s, '/nowhere')]),
    [
      ['0.2.0', 'npm:play-runner@0.2.0'],
      ['^0.2', 'npm:play-runner@^0.2'],
      ['~1.2.3-rc.1', 'npm:play-runner@~1.2.3-rc.1'],
      ['>=0.1 <0.3', 'npm:play-runner@>=0.1 <0.3'],
      ['latest', 'npm:play-runner@latest'],
      ['npm:play-runner@1', 'npm:play-runner@1'],
      ['github:org/play', 'github:org/play'],
    ],
  );
});
