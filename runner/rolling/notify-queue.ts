// A rolling run's notices, posted in order and off the run's path: the run never waits for a webhook
// between batches (a dead receiver costs each post its retries), only at its very end for the last
// posts. A post that failed for good is a warning line on the run's view, never a failure of the run.
import { UsageError } from '../core/errors.js';
import { type NotifyOptions, notifyTarget, postNotification } from '../core/notify-post.js';
import type { JournalEvent } from '../state/store.js';
import type { RolloutStatus } from './model.js';
import { endNotice, eventNotice, type Notice, type NoticeRun, startNotice } from './notify-message.js';

export class RollingNotices {
  #chain: Promise<void> = Promise.resolve();
  readonly #failures: string[] = [];

  constructor(
    private readonly url: string | undefined,
    private readonly run: NoticeRun,
    private readonly warn: (line: string) => void,
    private readonly options: NotifyOptions = {},
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The posts that failed for good so far (as warned). */
  get failures(): readonly string[] {
    return this.#failures;
  }

  started(resumed: boolean): void {
    this.send(startNotice(this.run, resumed, this.now().toISOString()));
  }

  /** A journal event as it is recorded: a batch done, a node failed; the rest say nothing. */
  event(e: JournalEvent): void {
    const n = eventNotice(this.run, e);
    if (n) this.send(n);
  }

  /** The run's end for this process, then every post settled (the run's last wait). */
  async ended(status: RolloutStatus, reason: string | null, resume: string): Promise<void> {
    this.send(endNotice(this.run, status, reason, this.now().toISOString(), resume));
    await this.#chain;
  }

  private send(n: Notice): void {
    const url = this.url;
    if (!url) return;
    this.#chain = this.#chain.then(async () => {
      const failure = await postNotification(url, n, this.options);
      if (failure === null) return;
      this.#failures.push(failure);
      this.warn(`warning: the ${n.event} notice was not delivered: ${failure}\n`);
    });
  }
}

/** --notify's URL, checked before the run starts: an http(s) URL (shown only as notifyTarget says). */
export function checkNotifyUrl(url: string | undefined): void {
  if (url === undefined) return;
  let ok = false;
  try {
    ok = /^https?:$/.test(new URL(url).protocol);
  } catch {}
  if (!ok) throw new UsageError(`--notify ${notifyTarget(url)}: expected an http:// or https:// URL`);
}
