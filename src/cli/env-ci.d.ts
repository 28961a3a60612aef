/**
 * The part of env-ci 11's answer the command reads. Its DefinitelyTyped
 * package describes version 3 (no GitHub Actions, Azure as `vsts`), so the
 * shape is declared here, every field optional as the services fill them.
 */
declare module 'env-ci' {
  interface EnvCiAnswer {
    isCi: boolean;
    /** The service's key (`gitlab`, `circleci`, `jenkins`, ...); absent outside CI. */
    service?: string;
    /** Its display name (`GitLab CI/CD`). */
    name?: string;
    commit?: string;
    branch?: string;
    tag?: string;
    pr?: string | number;
    isPr?: boolean;
    prBranch?: string;
    slug?: string;
    root?: string;
    buildUrl?: string;
  }
  export default function envCi(options?: {
    env?: Record<string, string | undefined>;
    cwd?: string;
  }): EnvCiAnswer;
}
