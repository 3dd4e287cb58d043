/// A growable run of plain values for the parser's and the facts walker's hot paths.
///
/// An Array checks on every append and every element write that its storage is not shared;
/// here that would be a runtime call per syntax node. A `ParseBuffer` is never shared: it is
/// owned by one parser or walker, which must not hand copies of it around (copies would share
/// the storage). Its memory is freed with the last copy, and kept across `removeAll()`.
///
/// The facts walker (FlowAnalysis) appends and reads per syntax node, so the hot members are
/// `@inlinable`: across the module boundary they are specialized and inlined as before.
public struct ParseBuffer<Element: BitwiseCopyable> {
    /// Frees the storage when the last copy of the buffer goes away.
    @usableFromInline final class Owner {
        @usableFromInline var memory: UnsafeMutablePointer<Element>
        @usableFromInline init(_ memory: UnsafeMutablePointer<Element>) { self.memory = memory }
        deinit { memory.deallocate() }
    }

    /// Set only by the buffer itself (not `private(set)`, which inlinable code cannot use).
    public var base: UnsafeMutablePointer<Element>
    /// Set only by the buffer itself.
    public var count = 0
    @usableFromInline var capacity: Int
    @usableFromInline let owner: Owner

    @inlinable
    public init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        owner = Owner(base)
    }

    @inlinable @inline(__always)
    public subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// The elements, valid until the buffer next grows.
    @inlinable
    public var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    @inlinable @inline(__always)
    public mutating func append(_ element: Element) {
        if count == capacity { grow(toAtLeast: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Appends `other[from...]`.
    @inlinable
    public mutating func append(_ other: ParseBuffer<Element>, from start: Int) {
        let added = other.count - start
        guard added > 0 else { return }
        if count + added > capacity { grow(toAtLeast: count + added) }
        (base + count).initialize(from: other.base + start, count: added)
        count += added
    }

    /// Appends `count` copies of `element`.
    @inlinable
    public mutating func append(repeating element: Element, count added: Int) {
        guard added > 0 else { return }
        if count + added > capacity { grow(toAtLeast: count + added) }
        (base + count).initialize(repeating: element, count: added)
        count += added
    }

    @inlinable @inline(__always)
    public mutating func removeLast() -> Element {
        count -= 1
        return base[count]
    }

    /// Drops the elements from `newCount` on.
    @inlinable @inline(__always)
    public mutating func truncate(to newCount: Int) {
        count = min(count, newCount)
    }

    @inlinable
    public mutating func removeAll() {
        count = 0
    }

    /// Hands over the elements' memory, which the caller now owns and deallocates; the buffer
    /// is left empty, with new room of its own.
    package mutating func takeMemory() -> UnsafeMutablePointer<Element> {
        let taken = base
        capacity = 16
        base = .allocate(capacity: capacity)
        owner.memory = base
        count = 0
        return taken
    }

    @usableFromInline @inline(never)
    mutating func grow(toAtLeast minimum: Int) {
        let newCapacity = max(capacity * 2, minimum)
        let memory = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        memory.initialize(from: base, count: count)
        base.deallocate()
        base = memory
        owner.memory = memory
        capacity = newCapacity
    }
}
