import type { ReactNode } from "react";
import { Button, Dialog, DialogTrigger, Heading, Popover } from "react-aria-components";

/**
 * A button that opens a panel beside it (React Aria popover dialog): focus moves in, Escape and a
 * click outside close it, and it stays inside the screen. The panel gets `close` to close itself.
 */
export function PopoverButton({
  label,
  buttonContent,
  title,
  children,
  className = "button button--secondary",
  isOpen,
  onOpenChange,
}: {
  /** The button's accessible name when its content is not text. */
  label?: string;
  buttonContent: ReactNode;
  title: string;
  children: (close: () => void) => ReactNode;
  className?: string;
  isOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  return (
    <DialogTrigger isOpen={isOpen} onOpenChange={onOpenChange}>
      <Button className={className} aria-label={label}>
        {buttonContent}
      </Button>
      <Popover className="popover" placement="bottom end" offset={8} containerPadding={12}>
        <Dialog className="popover__body">
          {({ close }) => (
            <>
              <Heading slot="title" className="popover__title">
                {title}
              </Heading>
              {children(close)}
            </>
          )}
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}
