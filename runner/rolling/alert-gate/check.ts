// The alert gate as the batch loop uses it: before a batch with nodes to start, ask Prometheus every
// query and the alerts (one request for all the alert names), and pause the run when any is firing or
// Prometheus could not tell, exactly as outside the maintenance window (`paused`, exit 75, --resume
// carries on, asking again). The verdict is recorded as a run note ('alerts').
import type { RolloutStatus } from '../model.js';
import type { AlertGate } from '../model.js';
import { type PrometheusAsk, prometheusAsker, prometheusAuth } from './prometheus-http.js';
import { alertFindings, clearText, type Finding, gateVerdict, queryFinding } from './verdict.js';

/** Asks the gate's questions; the findings in order (queries, then alerts). */
export async function askGate(gate: AlertGate, ask: PrometheusAsk): Promise<Finding[]> {
  const queries = gate.queries.map(async (q) => queryFinding(q, await ask('api/v1/query', { query: q })));
  const alerts = gate.alerts.length
    ? ask('api/v1/alerts').then((a) => alertFindings(gate.alerts, a))
    : Promise.resolve([]);
  return [...(await Promise.all(queries)), ...(await alerts)];
}

/** The check before a batch: the pause reason, or null to go on. */
export type AlertGateCheck = (batch: number, of: number) => Promise<{ reason: string | null; note: string }>;

/** The gate's check, with credentials from `env` (a half-set basic auth is refused now, exit 64). */
export function alertGateCheck(gate: AlertGate, env: NodeJS.ProcessEnv, ask?: PrometheusAsk): AlertGateCheck {
  const asker = ask ?? prometheusAsker(gate.prometheus, prometheusAuth(env));
  return async (batch, of) => {
    const findings = await askGate(gate, asker);
    const why = gateVerdict(findings, gate.prometheus);
    return why === null
      ? { reason: null, note: clearText(findings) }
      : { reason: `alert gate before batch ${batch} of ${of}: ${why}`, note: why };
  };
}

interface GateDeps {
  readonly alertGate?: AlertGateCheck | null;
  record(host: string, phase: string, state: 'end' | 'fail', detail?: string, data?: object): Promise<void>;
}

/** For the batch loop: paused by the gate, or null (also without a gate, or with no new node to start). */
export async function alertGatePause(
  d: GateDeps,
  newNodes: boolean,
  batch: number,
  of: number,
): Promise<{ status: RolloutStatus & 'paused'; reason: string } | null> {
  if (!d.alertGate || !newNodes) return null;
  const { reason, note } = await d.alertGate(batch, of);
  await d.record('', 'alerts', reason ? 'fail' : 'end', note, { batch });
  return reason ? { status: 'paused', reason } : null;
}
