/** Types of what eslint.config.js exports, for the floor-plan sweep. */
export declare const floors: readonly { readonly name: string; readonly paths: readonly string[] }[];
declare const config: unknown;
export default config;
