// parseDismPackageInfo (tasks/windows/parse/dism-package-info.ts): DISM's /get-packageinfo text read
// into applicability and state, a table compared whole; text that is not a package's info is an error.
import test from 'ava';
import { parseDismPackageInfo } from '../../../tasks/windows/parse/dism-package-info.js';

const info = (applicable: string, state: string, restart = 'Required') =>
  [
    '',
    'Deployment Image Servicing and Management tool',
    'Version: 10.0.17763.1',
    '',
    'Image Version: 10.0.17763.1158',
    '',
    'Package information:',
    '',
    'Package Identity : Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1217.1.7',
    `Applicable : ${applicable}`,
    'Copyright : Microsoft Corporation',
    'Description : Fix for KB4551853',
    `Restart Required : ${restart}`,
    `State : ${state}`,
    'Completely offline capable : No',
    '',
    'The operation completed successfully.',
  ].join('\r\n');

const ID = 'Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1217.1.7';

test('applicability and state, as DISM prints them', (t) => {
  const rows = [
    info('Yes', 'Not Present'),
    info('Yes', 'Install Pending'),
    info('Yes', 'Installed', 'Not Required'),
    info('No', 'Not Present'),
    info('No', 'Superseded'),
  ].map(parseDismPackageInfo);
  t.deepEqual(rows, [
    { identity: ID, applicable: true, state: 'Not Present', restartRequired: 'Required' },
    { identity: ID, applicable: true, state: 'Install Pending', restartRequired: 'Required' },
    { identity: ID, applicable: true, state: 'Installed', restartRequired: 'Not Required' },
    { identity: ID, applicable: false, state: 'Not Present', restartRequired: 'Required' },
    { identity: ID, applicable: false, state: 'Superseded', restartRequired: 'Required' },
  ]);
});

test('text without package information, or with values DISM never prints, is an error', (t) => {
  const errors = [
    'Error: 0x80070002\r\n\r\nThe system cannot find the file specified.',
    info('Maybe', 'Installed'),
    info('Yes', 'Half There'),
  ].map((text) => t.throws(() => parseDismPackageInfo(text))!.message);
  t.deepEqual(errors, [
    'dism /get-packageinfo printed no package information (no Applicable and State lines): "Error: 0x80070002\\r\\n\\r\\nThe system cannot find the file specified."',
    'dism /get-packageinfo: Applicable is "Maybe", not Yes or No',
    'dism /get-packageinfo: unknown package State "Half There"',
  ]);
});
