import { useEffect, useState } from 'react';
import QRCode from 'qrcode';
import { Spinner } from '../../components/Spinner.tsx';

/** The invitation link as a QR code (qrcode → data URL, as the deposit screen draws its address). */
export function InviteQr({ link, alt, size = 160 }: { link: string; alt: string; size?: number }) {
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(link, { margin: 1, width: size })
      .then((url) => {
        if (live) setQr(url);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [link, size]);
  return (
    <div className="rb-qr" style={{ width: size, height: size }}>
      {qr ? <img src={qr} alt={alt} width={size} height={size} data-testid="rebate-qr" /> : <Spinner size={20} />}
    </div>
  );
}
