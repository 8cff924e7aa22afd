/** Default avatar served from public/ when the user has none (`avatar === ''`). */
export const DEFAULT_AVATAR = '/default-avatar.svg';

/** A round user avatar; falls back to the default image for '' or a broken address. */
export function Avatar({ src, size = 32, alt }: { src: string | null | undefined; size?: number; alt: string }) {
  return (
    <img
      className="rf-avatar"
      src={src ? src : DEFAULT_AVATAR}
      alt={alt}
      width={size}
      height={size}
      onError={(e) => {
        if (!e.currentTarget.src.endsWith(DEFAULT_AVATAR)) e.currentTarget.src = DEFAULT_AVATAR;
      }}
    />
  );
}
