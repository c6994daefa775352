/** Go (RE2) regex source to an equivalent JavaScript regex source (no flags needed). */
export declare function convert(src: string): string;
/** The subset of TOML gitleaks.toml uses. */
export declare function parseToml(text: string): { rules: Record<string, unknown>[]; allowlist?: Record<string, unknown> };
