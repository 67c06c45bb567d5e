/**
 * What a run covered: for every operation of the target's own OpenAPI document, the statuses
 * the document lists and those the run saw (each request the run made is matched to an
 * operation by method and path template), and the event types the run's receivers were sent.
 * The run's coverage is the share of documented (operation, status) pairs it exercised
 * (docs/conformance.md#coverage); `--min-coverage` fails a run below a floor.
 */
import { templateMatcher } from '../path-template.js';

/** One operation of the document, and what the run saw of it. */
export interface OperationCoverage {
  operationId: string;
  /** `GET`, `POST`, … */
  method: string;
  /** The document's path template, as it lists it (`/v1/apps/{id}`). */
  path: string;
  /** The statuses the document lists for it, ascending. */
  documented: number[];
  /** The statuses the run's answers to it had, ascending (undocumented ones too). */
  exercised: number[];
}

export interface Coverage {
  operations: OperationCoverage[];
  /** Event types delivered to the run's receivers, sorted. */
  events: string[];
  /** Documented (operation, status) pairs, and those of them the run saw. */
  documentedPairs: number;
  exercisedPairs: number;
  /** exercisedPairs / documentedPairs × 100, one decimal; 0 when the document lists none. */
  percent: number;
  /** Why the document could not be read, when it could not (then `operations` is empty). */
  problem?: string;
  /** `--min-coverage`: the run fails (exit 1) when `percent` is below it. */
  minimum?: number;
}

/** Whether a floor was set and the run's coverage is below it. */
export function belowMinimum(coverage: Coverage | undefined): boolean {
  return coverage?.minimum !== undefined && coverage.percent < coverage.minimum;
}

/** An answer the run had: the request's method and URL, and the status. */
export interface Answer {
  method: string;
  url: string;
  status: number;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The operations of an OpenAPI document: operationId, method, path and the numeric statuses of `responses`. */
export function documentedOperations(document: unknown): Array<Omit<OperationCoverage, 'exercised'>> {
  const paths = (document as { paths?: unknown } | null)?.paths;
  if (typeof paths !== 'object' || paths === null) throw new Error('the document has no paths');
  const operations: Array<Omit<OperationCoverage, 'exercised'>> = [];
  for (const [path, item] of Object.entries(paths as Record<string, unknown>)) {
    for (const method of METHODS) {
      const operation = (item as Record<string, unknown> | null)?.[method] as { operationId?: unknown; responses?: unknown } | undefined;
      if (typeof operation !== 'object' || operation === null) continue;
      const documented = Object.keys(operation.responses ?? {})
        .filter((status) => /^\d{3}$/.test(status))
        .map(Number)
        .sort((a, b) => a - b);
      operations.push({
        operationId: typeof operation.operationId === 'string' ? operation.operationId : `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        documented,
      });
    }
  }
  return operations;
}

/** The run's coverage of `document` by its `answers` (URLs matched by their path) and the event types it received. */
export function coverageOf(document: unknown, answers: readonly Answer[], events: Iterable<string>): Coverage {
  const operations = documentedOperations(document).map((operation) => ({ ...operation, exercised: new Set<number>() }));
  const operationOf = templateMatcher(operations.map((operation) => ({ method: operation.method, path: operation.path, value: operation })));
  for (const answer of answers) operationOf(answer.method.toUpperCase(), new URL(answer.url).pathname)?.exercised.add(answer.status);
  const covered = operations.map(({ exercised, ...operation }) => ({ ...operation, exercised: [...exercised].sort((a, b) => a - b) }));
  const documentedPairs = covered.reduce((sum, operation) => sum + operation.documented.length, 0);
  const exercisedPairs = covered.reduce((sum, operation) => sum + operation.documented.filter((status) => operation.exercised.includes(status)).length, 0);
  return {
    operations: covered,
    events: [...new Set(events)].sort(),
    documentedPairs,
    exercisedPairs,
    percent: documentedPairs === 0 ? 0 : Math.floor((exercisedPairs / documentedPairs) * 1000) / 10,
  };
}

/** A coverage with no document: what the run could not tell. */
export function unknownCoverage(problem: string, events: Iterable<string>): Coverage {
  return { operations: [], events: [...new Set(events)].sort(), documentedPairs: 0, exercisedPairs: 0, percent: 0, problem };
}

/** Operations the run never had an answer from. */
export function neverExercised(coverage: Coverage): OperationCoverage[] {
  return coverage.operations.filter((operation) => operation.exercised.length === 0);
}

/** The one-line summary: `Coverage: 57 of 57 operations, 512 of 561 documented statuses (91.2 %), 14 event types`. */
export function coverageLine(coverage: Coverage): string {
  if (coverage.problem !== undefined) return `Coverage: unknown (${coverage.problem}); ${coverage.events.length} event types delivered`;
  const exercised = coverage.operations.length - neverExercised(coverage).length;
  const floor =
    coverage.minimum === undefined
      ? ''
      : belowMinimum(coverage)
        ? `; below --min-coverage ${coverage.minimum} %`
        : `; --min-coverage ${coverage.minimum} % met`;
  return `Coverage: ${exercised} of ${coverage.operations.length} operations, ${coverage.exercisedPairs} of ${coverage.documentedPairs} documented (operation, status) pairs (${coverage.percent.toFixed(1)} %), ${coverage.events.length} event types delivered${floor}`;
}
