/** env-ci 11's answer: its DefinitelyTyped package describes version 3 (no GitHub Actions, Azure as `vsts`). */
declare module 'env-ci' {
  interface EnvCiAnswer {
    isCi: boolean;
    service?: string;
    name?: string;
    commit?: string;
    branch?: string;
    tag?: string;
    isPr?: boolean;
    prBranch?: string;
    slug?: string;
  }
  export default function envCi(options?: {
    env?: Record<string, string | undefined>;
    cwd?: string;
  }): EnvCiAnswer;
}
