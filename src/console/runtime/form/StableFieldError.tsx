// A field's messages keep the space they took: when the message under a field goes
// (the user fixed it; the press on Save blurred the field and the form re-checked it) nothing
// below moves, so the press on Save lands where the button was. The space is the tallest the
// messages of this field have taken since the form opened; a field never in error takes none.
import { useLayoutEffect, useRef, useState } from 'react';
import { Templates } from '@rjsf/mui';
import type { FieldErrorProps } from '@rjsf/utils';

const MuiFieldError = Templates.FieldErrorTemplate!;

/** Blur, submit and server errors can say the same thing: each message once, in a steady space. */
export function StableFieldError(props: FieldErrorProps) {
  const unique = props.errors ? [...new Set(props.errors.map((e) => (typeof e === 'string' ? e : String(e))))] : props.errors;
  const box = useRef<HTMLDivElement>(null);
  const [reserved, setReserved] = useState(0);
  const showing = (unique?.length ?? 0) > 0;
  useLayoutEffect(() => {
    // Only while messages show can the space grow: a field without any is not measured (reading
    // the height of each of a long form's fields forced the whole form's layout while it mounted).
    if (!showing) return;
    const height = box.current?.offsetHeight ?? 0;
    if (height > reserved) setReserved(height);
  });
  return (
    <div ref={box} data-testid="field-messages" style={reserved ? { minHeight: reserved } : undefined}>
      <MuiFieldError {...props} errors={unique} />
    </div>
  );
}
