// The input every text-like widget renders (rjsf's BaseInputTemplate, MUI theme) with local state:
// a keystroke changes only this input; the form hears the value after a pause, when the user
// leaves the field or presses Enter (rjsf #3715 and #4250, JSON Forms' useDebouncedChange). On a
// large form a keystroke then costs one input, not a re-render of every field.
import { useCallback, useEffect, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { Templates } from '@rjsf/mui';
import type { BaseInputTemplateProps } from '@rjsf/utils';

const MuiBaseInputTemplate = Templates.BaseInputTemplate!;

/** How long typing may pause before the form hears the value. */
export const COMMIT_DELAY_MS = 300;

export default function DebouncedInputTemplate(props: BaseInputTemplateProps) {
  const { value, onChange, onBlur, options, onChangeOverride } = props;
  const [local, setLocal] = useState<unknown>(value);
  const pending = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef<unknown>(value);

  // A value set from outside (a loaded record, a reset) shows unless the user is typing.
  useEffect(() => {
    if (!pending.current) {
      latest.current = value;
      setLocal(value);
    }
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const commit = useCallback(
    (sync: boolean) => {
      clearTimeout(timer.current);
      if (!pending.current) return;
      pending.current = false;
      const v = latest.current;
      const send = () => onChange(v === '' ? options.emptyValue : v);
      // Synchronously on blur and Enter, so the submit that follows sees the value.
      if (sync) flushSync(send);
      else send();
    },
    [onChange, options.emptyValue],
  );

  const handleChange = useCallback(
    (e: ChangeEvent<HTMLInputElement>) => {
      latest.current = e.target.value;
      pending.current = true;
      setLocal(e.target.value);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => commit(false), COMMIT_DELAY_MS);
    },
    [commit],
  );

  if (onChangeOverride) return <MuiBaseInputTemplate {...props} />;
  return (
    <MuiBaseInputTemplate
      {...props}
      value={local}
      onChangeOverride={handleChange}
      onBlur={(id, v) => {
        commit(true);
        onBlur(id, v);
      }}
      onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
        if (e.key === 'Enter') commit(true);
      }}
    />
  );
}
