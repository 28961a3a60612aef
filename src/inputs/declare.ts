/** The one reader of any set of declared inputs: every bad one in one `InputError`, before any request. */
import { z } from 'zod';
import { EmptyValue, Invalid, InputError, type InputProblem } from './errors.js';
import type { RunDescription } from './run-description.js';

/** A text, or a field of the run's description (action.yml's `${{ github.<field> }}`). */
export type InputDefault = string | { run: 'repository' };

/**
 * An expression left as it is (`${{ github.token }}`): only a runner evaluates one, and a run
 * outside a runner that reads action.yml's defaults (`local-action`) hands it over as text.
 * It is no value: never masked, never a token.
 */
export function isUnevaluated(raw: string): boolean {
  return /^\$\{\{.*\}\}$/.test(raw.trim());
}

export interface DeclaredInput<T> {
  /** From the trimmed text (`''` when not given) to its value; throws `Invalid`. */
  readonly parse: (raw: string, run: RunDescription) => T;
  /** Its raw text is masked before it is parsed. */
  readonly sensitive: boolean;
  readonly default?: InputDefault;
  /**
   * A problem of the run this raw text shows (an empty api key on a fork's pull request):
   * it leads the report, and the empty values it leaves in other inputs are not reported.
   */
  readonly runProblem?: (raw: string, run: RunDescription) => string | undefined;
  /**
   * What is wrong with its raw text beside the other raw texts of its set (absent ones
   * read as `''`), checked before it is parsed and reported in the set's order.
   */
  readonly besides?: (raw: string, set: Readonly<Record<string, string>>) => string | undefined;
}

export function input<T>(
  parse: (raw: string, run: RunDescription) => T,
  options: Partial<Omit<DeclaredInput<T>, 'parse'>> = {},
): DeclaredInput<T> {
  return { ...options, parse, sensitive: options.sensitive ?? false };
}

export type Declarations = Readonly<Record<string, DeclaredInput<unknown>>>;

export type InputValues<D extends Declarations> = {
  -readonly [K in keyof D]: ReturnType<D[K]['parse']>;
};

/** As `core.getInput` reads: trimmed; undefined when not given at all (outside a runner): the default is used. */
export type InputReader<N extends string = string> = (name: N) => string | undefined;

export function namesOf<D extends Declarations>(declarations: D): (keyof D & string)[] {
  return Object.keys(declarations);
}

export function sensitiveNames<D extends Declarations>(declarations: D): (keyof D & string)[] {
  return namesOf(declarations).filter((name) => declarations[name]?.sensitive === true);
}

/** The text an input has when it is not given: its default, or `''` for a required one. */
export function defaultText(declared: DeclaredInput<unknown>, run: RunDescription): string {
  const fallback: InputDefault = declared.default ?? '';
  return typeof fallback === 'string' ? fallback : (run[fallback.run] ?? '');
}

function inputSchema(
  declared: DeclaredInput<unknown>,
  run: RunDescription,
  set: Readonly<Record<string, string>>,
) {
  return z.string().transform((raw, context) => {
    const reject = (message: string, empty: boolean) => {
      context.addIssue({ code: 'custom', message, params: { empty } });
      return z.NEVER;
    };
    const besides = declared.besides?.(raw, set);
    if (besides !== undefined) return reject(besides, false);
    try {
      return declared.parse(raw, run);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      return reject(error.message, error instanceof EmptyValue);
    }
  });
}

/** An issue's path is the input's name. */
export function declarationsSchema(
  declarations: Declarations,
  run: RunDescription,
  set: Readonly<Record<string, string>> = {},
) {
  return z.object(
    Object.fromEntries(
      Object.entries(declarations).map(([name, declared]) => [
        name,
        inputSchema(declared, run, set),
      ]),
    ),
  );
}

const problemOf = ({ input, problem }: InputProblem): InputProblem => ({ input, problem });

function runProblemOf(
  declarations: Declarations,
  raw: Record<string, string>,
  run: RunDescription,
): InputProblem | undefined {
  for (const [name, declared] of Object.entries(declarations)) {
    const problem = declared.runProblem?.(raw[name] ?? '', run);
    if (problem !== undefined) return { input: name, problem };
  }
  return undefined;
}

/** Throws one `InputError` naming every bad input, in the set's order. */
export function readInputs<D extends Declarations>(
  declarations: D,
  read: InputReader<keyof D & string>,
  run: RunDescription,
): InputValues<D> {
  const raw = Object.fromEntries(
    namesOf(declarations).map((name) => [
      name,
      read(name) ?? defaultText(declarations[name] as DeclaredInput<unknown>, run),
    ]),
  );
  // Parsed once: zod's generated fast path for an object would cost more to make than it saves.
  const result = declarationsSchema(declarations, run, raw).safeParse(raw, { jitless: true });
  const issues = (result.error?.issues ?? []).map((issue) => ({
    input: String(issue.path[0] ?? 'inputs'),
    problem: issue.message,
    empty: issue.code === 'custom' && issue.params?.empty === true,
  }));
  const lead = runProblemOf(declarations, raw, run);
  if (lead !== undefined) {
    const emptied = [...new Set(issues.filter((issue) => issue.empty).map(({ input }) => input))];
    const cause =
      emptied.length === 0
        ? ''
        : ` The empty values in ${emptied.map((name) => `'${name}'`).join(' and ')} have the same cause.`;
    const others = issues.filter((issue) => !issue.empty);
    throw new InputError(others.map(problemOf), { ...lead, problem: lead.problem + cause });
  }
  if (!result.success) throw new InputError(issues.map(problemOf));
  return result.data as InputValues<D>;
}

/** `record` without its undefined fields: the inputs that were given. */
export function given<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(record).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
