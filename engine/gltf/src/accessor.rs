//! A bounds-checked accessor reader.
//!
//! The `gltf` crate's own reader slices buffers without checking every length against
//! malformed input, so this module checks offset + count * stride against the buffer view and
//! the buffer *before* reading or allocating, and never panics.

use gltf::accessor::{DataType, Dimensions};

use crate::budget::Budget;
use crate::error::AccessorProblem;
use crate::files::Bytes;

/// At most this many elements may come from nothing (an accessor with no buffer view, whose
/// elements are zeros plus sparse substitutions). Bounds the allocation a tiny file can cause.
pub(crate) const MAX_UNBACKED_ELEMENTS: u64 = 1 << 24;

/// The resolved bytes of every buffer, in glTF order, and what remains of the load's
/// decoded-data budget ([`MAX_DECODED_BYTES`](crate::MAX_DECODED_BYTES) by default).
pub(crate) struct Buffers<'a> {
    data: Vec<Bytes<'a>>,
    budget: Budget,
}

impl<'a> Buffers<'a> {
    pub(crate) fn new(data: Vec<Bytes<'a>>, budget: Budget) -> Self {
        Self { data, budget }
    }

    /// Buffer `index`'s bytes (empty if there is no such buffer).
    pub(crate) fn get(&self, index: usize) -> &[u8] {
        self.data.get(index).map_or(&[], |b| b)
    }

    /// The budget, for reads and allocations after the buffers.
    pub(crate) fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Takes `bytes` from the budget, or says how much was asked and how much remains.
    pub(crate) fn charge(&self, bytes: u64) -> Result<(), (u64, u64)> {
        self.budget.charge(bytes)
    }
}

/// An accessor's elements copied out tightly packed, with sparse values applied.
struct Packed {
    bytes: Vec<u8>,
    data_type: DataType,
    components: usize,
    normalized: bool,
    count: usize,
}

fn component_size(t: DataType) -> usize {
    match t {
        DataType::I8 | DataType::U8 => 1,
        DataType::I16 | DataType::U16 => 2,
        DataType::U32 | DataType::F32 => 4,
    }
}

fn type_name(dims: Dimensions, t: DataType, normalized: bool) -> String {
    let dims = match dims {
        Dimensions::Scalar => "SCALAR",
        Dimensions::Vec2 => "VEC2",
        Dimensions::Vec3 => "VEC3",
        Dimensions::Vec4 => "VEC4",
        Dimensions::Mat2 => "MAT2",
        Dimensions::Mat3 => "MAT3",
        Dimensions::Mat4 => "MAT4",
    };
    let t = match t {
        DataType::I8 => "i8",
        DataType::U8 => "u8",
        DataType::I16 => "i16",
        DataType::U16 => "u16",
        DataType::U32 => "u32",
        DataType::F32 => "f32",
    };
    let n = if normalized { "normalized " } else { "" };
    format!("{dims} of {n}{t}")
}

/// Checks that `count` elements of `elem_size` bytes, `stride` apart, starting `offset` bytes
/// into `view`, lie inside the view and the view inside its buffer; returns the absolute start.
fn check_range(
    view: &gltf::buffer::View<'_>,
    buffers: &Buffers<'_>,
    offset: u64,
    count: u64,
    stride: u64,
    elem_size: u64,
) -> Result<usize, AccessorProblem> {
    let buffer = view.buffer();
    let view_offset = view.offset() as u64;
    let view_len = view.length() as u64;
    let available = (buffers.get(buffer.index()).len() as u64).min(buffer.length() as u64);
    let view_end = view_offset.checked_add(view_len);
    if view_end.is_none_or(|end| end > available) {
        return Err(AccessorProblem::ViewPastBufferEnd {
            view: view.index(),
            buffer: buffer.index(),
            needed: view_end.unwrap_or(u64::MAX),
            available,
        });
    }
    if count > 0 {
        let needed = (count - 1)
            .checked_mul(stride)
            .and_then(|n| n.checked_add(elem_size))
            .and_then(|n| n.checked_add(offset));
        if needed.is_none_or(|n| n > view_len) {
            return Err(AccessorProblem::PastViewEnd {
                view: view.index(),
                needed: needed.unwrap_or(u64::MAX),
                available: view_len,
            });
        }
    }
    // Both sums were checked against `available`, a slice length, so they fit in usize.
    Ok((view_offset + offset) as usize)
}

fn read_packed(acc: &gltf::Accessor<'_>, buffers: &Buffers<'_>) -> Result<Packed, AccessorProblem> {
    let data_type = acc.data_type();
    let components = acc.dimensions().multiplicity();
    let elem_size = component_size(data_type) * components;
    let count = acc.count() as u64;
    // Outputs are at most 4 bytes a component; charged after the range checks, before
    // anything is allocated.
    let charge = || {
        buffers
            .charge(count.saturating_mul(components as u64 * 4))
            .map_err(|(needed, remaining)| AccessorProblem::TooLarge { needed, remaining })
    };
    let mut bytes = match acc.view() {
        Some(view) => {
            let stride = view.stride().filter(|&s| s > 0).unwrap_or(elem_size) as u64;
            let start = check_range(
                &view,
                buffers,
                acc.offset() as u64,
                count,
                stride,
                elem_size as u64,
            )?;
            charge()?;
            let data = buffers.get(view.buffer().index());
            let mut bytes = Vec::with_capacity(count as usize * elem_size);
            for i in 0..count as usize {
                let at = start + i * stride as usize;
                bytes.extend_from_slice(&data[at..at + elem_size]);
            }
            bytes
        }
        None => {
            if count > MAX_UNBACKED_ELEMENTS {
                return Err(AccessorProblem::TooManyUnbacked {
                    count,
                    max: MAX_UNBACKED_ELEMENTS,
                });
            }
            charge()?;
            vec![0; count as usize * elem_size]
        }
    };
    if let Some(sparse) = acc.sparse() {
        let n = sparse.count() as u64;
        let indices = sparse.indices();
        let index_size = match indices.index_type() {
            gltf::accessor::sparse::IndexType::U8 => 1,
            gltf::accessor::sparse::IndexType::U16 => 2,
            gltf::accessor::sparse::IndexType::U32 => 4,
        };
        let iview = indices.view();
        let istart = check_range(
            &iview,
            buffers,
            indices.offset() as u64,
            n,
            index_size,
            index_size,
        )?;
        let values = sparse.values();
        let vview = values.view();
        let vstart = check_range(
            &vview,
            buffers,
            values.offset() as u64,
            n,
            elem_size as u64,
            elem_size as u64,
        )?;
        let idata = buffers.get(iview.buffer().index());
        let vdata = buffers.get(vview.buffer().index());
        for k in 0..n as usize {
            let at = istart + k * index_size as usize;
            let index = match index_size {
                1 => u32::from(idata[at]),
                2 => u32::from(u16::from_le_bytes([idata[at], idata[at + 1]])),
                _ => u32::from_le_bytes([idata[at], idata[at + 1], idata[at + 2], idata[at + 3]]),
            };
            let i = index as usize;
            if i >= count as usize {
                return Err(AccessorProblem::SparseIndexOutOfRange {
                    index,
                    count: count as usize,
                });
            }
            let src = vstart + k * elem_size;
            bytes[i * elem_size..(i + 1) * elem_size].copy_from_slice(&vdata[src..src + elem_size]);
        }
    }
    Ok(Packed {
        bytes,
        data_type,
        components,
        normalized: acc.normalized(),
        count: count as usize,
    })
}

/// Which integer encodings a float attribute accepts besides f32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// f32 only.
    Float,
    /// f32, or normalized i8/u8/i16/u16 mapped to [-1, 1] or [0, 1].
    Normalized,
    /// `KHR_mesh_quantization`: f32, or i8/u8/i16/u16, normalized (as above) or not (the
    /// integer's value; the node transform carries the dequantization).
    Quantized,
}

impl Encoding {
    fn accepts(self, t: DataType, normalized: bool) -> bool {
        match self {
            _ if t == DataType::F32 => true,
            _ if t == DataType::U32 => false,
            Self::Float => false,
            Self::Normalized => normalized,
            Self::Quantized => true,
        }
    }
}

/// Reads a float accessor of `N` components per element (`N = 16` for MAT4), converting the
/// integer types `encoding` accepts; every value must be finite.
pub(crate) fn read_floats<const N: usize>(
    acc: &gltf::Accessor<'_>,
    buffers: &Buffers<'_>,
    expected: &'static str,
    encoding: Encoding,
) -> Result<Vec<[f32; N]>, AccessorProblem> {
    let (dims, t, norm) = (acc.dimensions(), acc.data_type(), acc.normalized());
    // MAT2 and MAT3 have column padding for small types; no caller reads them.
    let type_ok = dims.multiplicity() == N
        && !matches!(dims, Dimensions::Mat2 | Dimensions::Mat3)
        && encoding.accepts(t, norm);
    if !type_ok {
        return Err(AccessorProblem::WrongType {
            found: type_name(dims, t, norm).into(),
            expected,
        });
    }
    let packed = read_packed(acc, buffers)?;
    let size = component_size(packed.data_type);
    debug_assert_eq!(packed.components, N);
    let mut out = Vec::with_capacity(packed.count);
    for (element, chunk) in packed.bytes.chunks_exact(size * N).enumerate() {
        let mut value = [0.0; N];
        for (c, v) in value.iter_mut().enumerate() {
            let b = &chunk[c * size..(c + 1) * size];
            *v = match (packed.data_type, packed.normalized) {
                (DataType::F32, _) => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                (DataType::U8, true) => f32::from(b[0]) / 255.0,
                (DataType::I8, true) => (f32::from(b[0] as i8) / 127.0).max(-1.0),
                (DataType::U16, true) => f32::from(u16::from_le_bytes([b[0], b[1]])) / 65535.0,
                (DataType::I16, true) => {
                    (f32::from(i16::from_le_bytes([b[0], b[1]])) / 32767.0).max(-1.0)
                }
                (DataType::U8, false) => f32::from(b[0]),
                (DataType::I8, false) => f32::from(b[0] as i8),
                (DataType::U16, false) => f32::from(u16::from_le_bytes([b[0], b[1]])),
                (DataType::I16, false) => f32::from(i16::from_le_bytes([b[0], b[1]])),
                (DataType::U32, _) => unreachable!("rejected above"),
            };
        }
        if value.iter().any(|v| !v.is_finite()) {
            return Err(AccessorProblem::NotFinite { element });
        }
        out.push(value);
    }
    Ok(out)
}

/// Reads a JOINTS_n accessor: VEC4 of u8 or u16 (not normalized), widened to u16.
pub(crate) fn read_joints(
    acc: &gltf::Accessor<'_>,
    buffers: &Buffers<'_>,
) -> Result<Vec<[u16; 4]>, AccessorProblem> {
    let (dims, t, norm) = (acc.dimensions(), acc.data_type(), acc.normalized());
    if dims != Dimensions::Vec4 || norm || !matches!(t, DataType::U8 | DataType::U16) {
        return Err(AccessorProblem::WrongType {
            found: type_name(dims, t, norm).into(),
            expected: "VEC4 of u8 or u16",
        });
    }
    let packed = read_packed(acc, buffers)?;
    let size = component_size(t);
    Ok(packed
        .bytes
        .chunks_exact(size * 4)
        .map(|chunk| {
            std::array::from_fn(|c| match size {
                1 => u16::from(chunk[c]),
                _ => u16::from_le_bytes([chunk[2 * c], chunk[2 * c + 1]]),
            })
        })
        .collect())
}

/// Reads an index accessor: SCALAR of u8, u16 or u32, widened to u32.
pub(crate) fn read_indices(
    acc: &gltf::Accessor<'_>,
    buffers: &Buffers<'_>,
) -> Result<Vec<u32>, AccessorProblem> {
    let (dims, t, norm) = (acc.dimensions(), acc.data_type(), acc.normalized());
    if dims != Dimensions::Scalar
        || norm
        || !matches!(t, DataType::U8 | DataType::U16 | DataType::U32)
    {
        return Err(AccessorProblem::WrongType {
            found: type_name(dims, t, norm).into(),
            expected: "SCALAR of u8, u16 or u32",
        });
    }
    let packed = read_packed(acc, buffers)?;
    let size = component_size(t);
    Ok(packed
        .bytes
        .chunks_exact(size)
        .map(|b| match size {
            1 => u32::from(b[0]),
            2 => u32::from(u16::from_le_bytes([b[0], b[1]])),
            _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        })
        .collect())
}
