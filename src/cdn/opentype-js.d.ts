/** The part of opentype.js 2 (which ships no type declarations) the lettermark uses. */
declare module 'opentype.js' {
  export interface BoundingBox {
    x1: number;
    y1: number;
    x2: number;
    y2: number;
  }
  export interface PathCommand {
    type: 'M' | 'L' | 'C' | 'Q' | 'Z';
    x?: number;
    y?: number;
    x1?: number;
    y1?: number;
    x2?: number;
    y2?: number;
  }
  export interface Path {
    commands: PathCommand[];
    getBoundingBox(): BoundingBox;
  }
  export interface Font {
    unitsPerEm: number;
    hasChar(character: string): boolean;
    getPath(text: string, x: number, y: number, fontSize: number): Path;
  }
  /** The package is a UMD bundle: Node's ESM loader sees only its default export. */
  const opentype: { parse(buffer: ArrayBuffer): Font };
  export default opentype;
}
