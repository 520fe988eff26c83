/**
 * The interval of a market's valuations, calibrated at ingestion: leave-one-out valuations of a seeded sample of its
 * sales, each valued exactly as GET /estimate values a subject given by its attributes (the same candidates, the same
 * records left out as the subject's own), give the 10th and 90th percentiles of ln(actual / estimate), so that about
 * 80 % of sales fall inside [estimate * e^q10, estimate * e^q90].
 */
import { NearbyRecords, type CandidateRecord } from "./nearby.js";
import {
  INTERVAL_COVERAGE,
  quantile,
  SAME_SPOT_KM,
  seededRandom,
  subjectRecords,
  usableSales,
  valueFromComparables,
  type Subject,
  type ValuationModel,
} from "./valuation.js";

/** The interval from leave-one-out valuations of up to `sampleSize` sales chosen with a fixed seed. */
export function calibrate(
  model: Omit<ValuationModel, "interval" | "spread_terciles">,
  allSales: CandidateRecord[],
  sampleSize = 1500,
  seed = 20141013,
): ValuationModel {
  const draft: ValuationModel = {
    ...model,
    interval: { coverage: INTERVAL_COVERAGE, low_log: 0, high_log: 0, calibrated_on: 0, median_ape: 0, coverage_in_sample: 0 },
    spread_terciles: [0, 0],
  };
  const sales = usableSales(allSales, model) as CandidateRecord[];
  const random = seededRandom(seed);
  const sample = [...sales];
  for (let i = sample.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sample[i], sample[j]] = [sample[j], sample[i]];
  }
  const nearby = new NearbyRecords(sales);
  const residuals: number[] = [];
  const spreads: number[] = [];
  const apes: number[] = [];
  for (const sale of sample.slice(0, sampleSize)) {
    const subject: Subject = { ...sale, living_sqft: sale.living_sqft!, date: sale.date ?? model.newest_date };
    const own = subjectRecords(subject, sale.property_key, nearby.within(sale.latitude, sale.longitude, SAME_SPOT_KM));
    const candidates = nearby.candidates(sale.latitude, sale.longitude, (other) => other.id === sale.id || own.excludes(other));
    const valuation = valueFromComparables(subject, candidates, draft);
    if (!valuation) continue;
    residuals.push(Math.log(sale.price) - valuation.log_value);
    spreads.push(valuation.spread);
    apes.push(Math.abs(Math.exp(valuation.log_value) - sale.price) / sale.price);
  }
  const sortedResiduals = [...residuals].sort((a, b) => a - b);
  const tail = (1 - INTERVAL_COVERAGE) / 2;
  const low = quantile(sortedResiduals, tail);
  const high = quantile(sortedResiduals, 1 - tail);
  const sortedSpreads = [...spreads].sort((a, b) => a - b);
  return {
    ...draft,
    interval: {
      coverage: INTERVAL_COVERAGE,
      low_log: low,
      high_log: high,
      calibrated_on: residuals.length,
      median_ape: quantile(
        [...apes].sort((a, b) => a - b),
        0.5,
      ),
      coverage_in_sample: residuals.length ? residuals.filter((r) => r >= low && r <= high).length / residuals.length : 0,
    },
    spread_terciles: [quantile(sortedSpreads, 1 / 3), quantile(sortedSpreads, 2 / 3)],
  };
}
