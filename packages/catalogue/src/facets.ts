export interface FacetCount {
  value: string;
  count: number;
}
