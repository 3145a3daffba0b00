/** What the delivery section runs, per publishing mode. */
export interface DeliveryParams {
  /** Facts added at one instant to one child while the bridge runs. */
  burst: number;
  /** Journal facts recorded before the bridge's first start, spread over the day so far. */
  catchupFacts: number;
  /** Children the backlog is spread over. */
  catchupChildren: number;
}

export function deliveryParams(quick: boolean): DeliveryParams {
  return quick
    ? { burst: 200, catchupFacts: 1_000, catchupChildren: 3 }
    : { burst: 1_000, catchupFacts: 10_000, catchupChildren: 3 };
}
