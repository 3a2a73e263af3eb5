// shutdown.exe /r /t N [/d p:x:y] [/c text] on the simulated node: the node goes down after N
// seconds (model.ts scheduleReboot). A second request while one is scheduled fails with 1190, as
// shutdown.exe does (the first one stands); /t outside 0..315360000 (ten years) is 87. Errors are
// printed as shutdown.exe prints them: the system message, then the code in parentheses.
import type { NativeProgram, NativeResult } from './program.js';

const MAX_DELAY = 315360000;

const fail = (code: number, text: string): NativeResult => ({ code, stderr: `${text}(${code})\r\n` });
const badParameter = () => fail(87, 'The parameter is incorrect.');

export const shutdown: NativeProgram = (node, argv) => {
  let restart = false;
  let delay = 30;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!.toLowerCase().replace(/^-/, '/');
    switch (flag) {
      case '/r':
        restart = true;
        break;
      case '/f':
        break;
      case '/t': {
        const text = argv[++i] ?? '';
        if (!/^\d+$/.test(text) || Number(text) > MAX_DELAY) return badParameter();
        delay = Number(text);
        break;
      }
      case '/d':
        if (!/^(p:|u:)?\d{1,3}:\d{1,5}$/i.test(argv[++i] ?? '')) return badParameter();
        break;
      case '/c':
        if ((argv[++i] ?? '').length > 512) return badParameter();
        break;
      default:
        throw new Error(`the simulated shutdown.exe does not model ${argv[i]} (lab/windows/native/shutdown.ts)`);
    }
  }
  if (!restart) throw new Error('the simulated shutdown.exe models only /r (lab/windows/native/shutdown.ts)');
  if (node.state.boot.phase !== 'up') return fail(1190, 'A system shutdown has already been scheduled.');
  node.scheduleReboot(delay);
  return { code: 0 };
};
