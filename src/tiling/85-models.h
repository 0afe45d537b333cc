/* ------------------------------------------------------------------------ */
/* The models' interface: what hybrid.h's threaded models use of the plan  */
/* besides the step functions (tile_step_enter, tile_run_start, tile_pack, */
/* tile_waitall, tile_post, tile_parted_*, ...): the multiple model's face */
/* parts, a face message on the plan's requests and their start, and the   */
/* tile a failure of the whole-face messages names.                        */

/**
 * tile_part_sends() - does thread t send its own part of the face along
 * dimension i (the multiple model: it is the last thread along i)?
 * @p: the plan; @t: the thread; @i: the dimension, 0 .. N - 1.
 */
static inline int tile_part_sends(const tile_plan *p, int t, int i)
{
    return tile__is_sender(p, t, i);
}

/**
 * tile_part_receives() - does thread t receive its own part of the face
 * along dimension i (it is the first thread along i)?
 * @p: the plan; @t: the thread; @i: the dimension, 0 .. N - 1.
 */
static inline int tile_part_receives(const tile_plan *p, int t, int i)
{
    return tile__is_receiver(p, t, i);
}

/**
 * tile_part_tag() - thread t's part of the face along dimension i: its
 * partition of a partitioned message, and the tag of its own message (its
 * thread coordinates with t_i dropped, 0 .. prod_{j != i} T_j - 1).
 * @p: the plan; @t: the thread; @i: the dimension, 0 .. N - 1.
 */
static inline int tile_part_tag(const tile_plan *p, int t, int i)
{
    return tile__part_index(p, t, i);
}

/**
 * tile_face_message() - thread t's face message of tile k along dimension
 * i, on the plan's requests: posted at once (TILE_MESSAGES_NONBLOCKING), or
 * its persistent request (made once per buffer, size, peer and tag) queued
 * for tile_face_start().  Sends are kept before receives.
 * @p: the plan; @t: the thread; @send: 1 to send, 0 to receive;
 * @buf, @bytes: the message; @peer: the other rank; @tag: its tag
 * (tile_part_tag); @k: the tile (a failure names it); @i: the dimension.
 */
static inline void tile_face_message(tile_plan *p, int t, int send, void *buf, int64_t bytes,
                                     int peer, int tag, int64_t k, int i)
{
    tile__msg(p, t, send, buf, bytes, peer, tag, k, i);
}

/**
 * tile_face_start() - start thread t's persistent requests queued by
 * tile_face_message() from position @from of its list on (p->run.nreq[t]
 * before them), with one MPI_Startall; nothing for nonblocking messages.
 * @p: the plan; @t: the thread; @from: the first request to start;
 * @k: the tile a failure names (a failure is handled as the engine's own).
 */
static inline void tile_face_start(tile_plan *p, int t, int from, int64_t k)
{
    tile__start(p, t, from, k);
}

/**
 * tile_face_tile() - the tile of the whole-face messages in flight: the one
 * being received, else the one sent last (what tile_waitall's failure
 * names).
 * @p: the plan.
 */
static inline int64_t tile_face_tile(const tile_plan *p)
{
    return tile__wf_tile(p);
}
