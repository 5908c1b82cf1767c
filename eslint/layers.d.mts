// Types of eslint/layers.mjs for the TypeScript tests that read its tables.
export type Layer = "app" | "components" | "feature" | "platform";
export const ROOT: string;
export const LAYER_ORDER: Layer[];
export const LAYERS: Record<string, Layer>;
export const OUTSIDE: Record<string, Layer>;
export const EXCEPTIONS: { file: string; imports: string[]; reason: string }[];
export function layerOf(rel: string): Layer | null;
export function layerZones(allowed?: { imports: string[] }[]): { target: string[]; from: string; except?: string[]; message: string }[];
declare const layersConfig: object[];
export default layersConfig;
