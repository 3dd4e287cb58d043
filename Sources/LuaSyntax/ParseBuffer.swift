/// A growable run of plain values for the parser's and the facts walker's hot paths.
///
/// An Array checks on every append and every element write that its storage is not shared;
/// here that would be a runtime call per syntax node. A `ParseBuffer` is never shared: it is
/// owned by one parser or walker, which must not hand copies of it around (copies would share
/// the storage). Its memory is freed with the last copy, and kept across `removeAll()`.
package struct ParseBuffer<Element: BitwiseCopyable> {
    /// Frees the storage when the last copy of the buffer goes away.
    private final class Owner {
        var memory: UnsafeMutablePointer<Element>
        init(_ memory: UnsafeMutablePointer<Element>) { self.memory = memory }
        deinit { memory.deallocate() }
    }

    package private(set) var base: UnsafeMutablePointer<Element>
    package private(set) var count = 0
    private var capacity: Int
    private let owner: Owner

    package init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        owner = Owner(base)
    }

    @inline(__always)
    package subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// The elements, valid until the buffer next grows.
    package var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    package mutating func append(_ element: Element) {
        if count == capacity { grow(toAtLeast: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Appends `other[from...]`.
    package mutating func append(_ other: ParseBuffer<Element>, from start: Int) {
        let added = other.count - start
        guard added > 0 else { return }
        if count + added > capacity { grow(toAtLeast: count + added) }
        (base + count).initialize(from: other.base + start, count: added)
        count += added
    }

    /// Appends `count` copies of `element`.
    package mutating func append(repeating element: Element, count added: Int) {
        guard added > 0 else { return }
        if count + added > capacity { grow(toAtLeast: count + added) }
        (base + count).initialize(repeating: element, count: added)
        count += added
    }

    @inline(__always)
    package mutating func removeLast() -> Element {
        count -= 1
        return base[count]
    }

    /// Drops the elements from `newCount` on.
    @inline(__always)
    package mutating func truncate(to newCount: Int) {
        count = min(count, newCount)
    }

    package mutating func removeAll() {
        count = 0
    }

    @inline(never)
    private mutating func grow(toAtLeast minimum: Int) {
        let newCapacity = max(capacity * 2, minimum)
        let memory = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        memory.initialize(from: base, count: count)
        base.deallocate()
        base = memory
        owner.memory = memory
        capacity = newCapacity
    }
}
