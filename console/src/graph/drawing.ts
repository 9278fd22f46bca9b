/** What a diagram draws: labelled nodes and the edges between them, by index. */

export interface DrawnNode {
  label: string;
  /** A second line under the label (a count, a type). */
  detail?: string;
  /** Index into the palette: nodes of one type share a colour. */
  colour: number;
}

export interface DrawnEdge {
  from: number;
  to: number;
  label?: string;
  directed: boolean;
}
