// The hand-written screens (ARCHITECTURE 2: the flow editor, the payments hand-off and the demo's
// phone), by the
// name a `kind: feature` screen declares (schemas/_meta/screen.schema.yaml `feature`). Each loads
// lazily, on the first visit to its route, so none is ever in the first load. The Record is
// exhaustive over the declared names: a feature named in the meta-schema without its entry here
// is a type error.
import type { ComponentType } from 'react';
import type { ScreenDef, ScreenProps } from '../runtime/screen-types.ts';

export type FeatureName = NonNullable<ScreenDef['feature']>;
export type FeatureProps = ScreenProps & { screen: ScreenDef };

export const features: Record<FeatureName, () => Promise<{ default: ComponentType<FeatureProps> }>> = {
  flowEditor: () => import('./flow-editor/FlowEditor.tsx'),
  paymentsBuy: () => import('./payments/BuyCredits.tsx'),
  paymentsResponse: () => import('./payments/PaymentResponse.tsx'),
  sandboxPhone: () => import('./sandbox-phone/SandboxPhone.tsx'),
};
